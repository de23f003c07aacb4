import { createHmac, timingSafeEqual } from 'node:crypto'
import { ChatRequestError } from '../http/errors'
import type { Message } from '../protocol/messages'

/** Signs the assistant and tool messages the server hands out, and checks them when they come back. */
export interface ConversationSigner {
  /** The conversation with every assistant and tool message signed (`sig`), and no other message carrying one. */
  sign(messages: readonly Message[]): Message[]
  /**
   * Throws a `ChatRequestError` (`tampered_message`, 400) naming the first assistant or tool
   * message whose signature is missing or does not match.
   */
  verify(messages: readonly Message[]): void
}

/** The chain value before the first message. */
const CHAIN_START = Buffer.alloc(0)

/** Messages whose words the server wrote: only it may have produced them. */
const SIGNED_ROLES: ReadonlySet<Message['role']> = new Set(['assistant', 'tool'])

/**
 * Conversation integrity: each message gets a chain value, HMAC-SHA256 over the previous
 * message's chain value, its position, its role, content, tool calls and tool_call_id; an
 * assistant or tool message carries its chain value as `sig`.
 *
 * Invariant: a conversation passes `verify` only if every assistant and tool message in it was
 * signed by a server holding the secret, at that position, after exactly the messages before
 * it. Editing any message (a user message too: the reply was to those words), inventing one,
 * dropping one or reordering them changes the chain of every later message, so the first
 * signed message at or after the change fails. A user message appended at the end is the
 * user's own and needs no signature. Signatures do not expire and name no client: a
 * conversation stays valid after its sessions expire, or in another browser of the same user.
 *
 * The key is derived from `secret` for this purpose only, so a signature here is never a
 * valid identity cookie signature (which is made with the secret itself).
 */
export function createConversationSigner({ secret }: { secret: string }): ConversationSigner {
  if (!secret) throw new TypeError('createConversationSigner needs a non-empty secret')
  const key = createHmac('sha256', secret).update('elicit-chat conversation signature v1').digest()

  /**
   * Chain values `verify` computed, by message object, for the `sign` that follows in the same
   * turn: a turn verifies the conversation it was sent, then signs the same messages again with
   * its own after them. Messages are never changed once made, and an entry counts only at the
   * same position after the same chain value (the same object), so a hit is exactly what the
   * HMAC would give again. `sign` takes the entries it meets out, so none outlives its turn
   * (a waiting tool keeps the conversation's messages, and would keep them too).
   */
  const verified = new WeakMap<Message, { index: number; previous: Buffer; value: Buffer }>()

  function chainValue(previous: Buffer, index: number, message: Message): Buffer {
    const calls = (message.tool_calls ?? []).map((call) => [call.id, call.function.name, call.function.arguments])
    return createHmac('sha256', key)
      .update(previous)
      .update(JSON.stringify([index, message.role, message.content, calls, message.tool_call_id ?? null]))
      .digest()
  }

  /** The chain value of `message` for `sign`: the one `verify` left, if it matches, else computed. */
  function signedValue(previous: Buffer, index: number, message: Message): Buffer {
    const known = verified.get(message)
    if (!known) return chainValue(previous, index, message)
    verified.delete(message)
    return known.index === index && known.previous === previous ? known.value : chainValue(previous, index, message)
  }

  return {
    sign(messages) {
      let chain: Buffer = CHAIN_START
      return messages.map((message, index) => {
        chain = signedValue(chain, index, message)
        const { sig: _given, ...unsigned } = message
        return SIGNED_ROLES.has(message.role) ? { ...unsigned, sig: chain.toString('base64url') } : unsigned
      })
    },

    verify(messages) {
      let chain: Buffer = CHAIN_START
      for (const [index, message] of messages.entries()) {
        const previous = chain
        chain = chainValue(previous, index, message)
        verified.set(message, { index, previous, value: chain })
        if (!SIGNED_ROLES.has(message.role)) continue
        const path = `messages.${index}`
        const what = `${path} (${message.role === 'tool' ? `tool result for ${message.tool_call_id ?? 'no call'}` : 'assistant'})`
        if (message.sig === undefined) {
          throw tampered(path, `${what} has no signature: assistant and tool messages must be sent back exactly as the server produced them.`)
        }
        const given = Buffer.from(message.sig, 'base64url')
        if (given.length !== chain.length || !timingSafeEqual(given, chain)) {
          throw tampered(
            path,
            `${what} was not produced by this server at this place in the conversation, or it or a message before it was changed.`,
          )
        }
      }
    },
  }
}

function tampered(path: string, message: string): ChatRequestError {
  return new ChatRequestError('tampered_message', message, [{ path, message }])
}
