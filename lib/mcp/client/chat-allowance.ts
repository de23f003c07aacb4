import type { ExtendedMessage } from '../../tools/sample-messages'

/**
 * The key of an external tool's result (the JSON the model reads, see `encodeCallToolResult`)
 * that says the person allowed this tool of this server for the rest of the chat.
 */
export const ALLOWED_FOR_THIS_CHAT = 'allowedForThisChat'

/**
 * Whether the person allowed the tool `toolName` (`<server>__<tool>`) for the rest of this chat:
 * the result of an earlier call of it in the conversation says so (`ALLOWED_FOR_THIS_CHAT`).
 *
 * Why this can be trusted although the browser holds the conversation: every assistant and tool
 * message in it carries the server's signature, chained over the messages before it, and is
 * checked before the turn runs (`conversation-signature.ts`); the key is one the chat writes
 * beside the server's result, where nothing a server returns can put it. So the allowance is
 * the chat's own (another chat, or a new one, has none), it cannot be forged or moved to another
 * tool, and each call made under it says so again in its own result.
 *
 * `messages` is what the tool sees of the conversation (`ctx.parentMessages`): its most recent
 * part. An allowance whose last use has scrolled out of it is asked for again, never the reverse.
 */
export function allowedInChat({ messages, toolName }: { messages: readonly ExtendedMessage[]; toolName: string }): boolean {
  const calls = new Set<string>()
  for (const message of messages) {
    if (message.role === 'assistant' && 'tool_calls' in message) {
      for (const call of message.tool_calls) if (call.function.name === toolName) calls.add(call.id)
    } else if (message.role === 'tool' && calls.has(message.tool_call_id) && saysAllowed(message.content)) return true
  }
  return false
}

function saysAllowed(content: string): boolean {
  if (!content.startsWith('{')) return false
  try {
    return (JSON.parse(content) as Record<string, unknown>)[ALLOWED_FOR_THIS_CHAT] === true
  } catch {
    return false
  }
}
