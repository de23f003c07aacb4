import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto'
import type { ServerContext } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { JournalEntry } from '../../runtime/journal'

/** What a stateless round hands the client to carry to the next one: the tool call as data. */
export interface RoundState {
  /** This state's own id: a round continuing from it is answered once (see `RoundLedger`). */
  id: string
  toolName: string
  callId: string
  /** A digest of the call's arguments: a state is refused for a call with other arguments. */
  argumentsDigest: string
  journal: JournalEntry[]
  /** The last ctx call whose log or progress was sent: a replay does not send those again. */
  reported: number
  /**
   * The last progress value sent for the call (0..100), if any: a later round sends only values
   * above it, so the call's progress strictly increases across its rounds (see `ProgressSequence`).
   */
  progress?: number
}

export interface RoundStateCodec {
  mint(state: Omit<RoundState, 'id'>, ctx: ServerContext): Promise<string>
  /** The same for a round run outside the SDK (a 2025 call relayed as data), its binding given. */
  seal(state: Omit<RoundState, 'id'>, binding: string): string
  /** For `ServerOptions.requestState.verify`: throws on a state that is tampered, expired or someone else's. */
  verify(wire: string, ctx: ServerContext): Promise<RoundState>
  /** The same for a request not yet handed to the SDK, with its binding given (admission, in the endpoint); undefined when it fails. */
  open(wire: string, binding: string): RoundState | undefined
}

const payloadSchema = z.object({
  id: z.string(),
  exp: z.number(),
  toolName: z.string(),
  callId: z.string(),
  argumentsDigest: z.string(),
  reported: z.number().int().nonnegative(),
  progress: z.number().min(0).max(100).optional(),
  journal: z.array(z.custom<JournalEntry>((v) => typeof v === 'object' && v !== null)),
})

/** Shorter secrets are refused: every instance must share one that cannot be guessed. */
const MIN_SECRET_BYTES = 32
const VERSION = 'v1.'

/**
 * `requestState` for 2026-07-28 rounds: the journal, an id, and an expiry, sealed with
 * AES-256-GCM under a key derived from `secret`, with the caller's binding as additional data.
 * The seal is the signature: a changed byte, another secret or another caller fails its check,
 * and the expiry inside cannot be moved. It is encrypted, not only signed, because a journal
 * holds what the tool keeps from the user — a handoff's `before` result, such as pick_card's
 * secret card. Every instance with the same secret reads the states of the others.
 *
 * All in `node:crypto`, synchronously: the SDK's codec signs with WebCrypto, whose every HMAC is
 * a job on the thread pool — four per round, a fifth of a round's CPU in a profile.
 */
export function createRoundStateCodec({
  secret,
  ttlSeconds,
  bind,
}: {
  secret: string
  ttlSeconds: number
  /** Who and what the state belongs to: a state minted under one value is refused under another. */
  bind: (ctx: ServerContext) => string
}): RoundStateCodec {
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new RangeError(`The requestState secret has ${Buffer.byteLength(secret)} bytes; it needs at least ${MIN_SECRET_BYTES}.`)
  }
  const key = Buffer.from(hkdfSync('sha256', secret, 'elicit-chat', 'mcp request state encryption', 32))

  return {
    async mint(state, ctx) {
      return seal(state, bind(ctx))
    },
    seal,
    async verify(wire, ctx) {
      return unseal(wire, bind(ctx))
    },
    open(wire, binding) {
      try {
        return unseal(wire, binding)
      } catch {
        return undefined
      }
    },
  }

  function seal({ toolName, callId, argumentsDigest, journal, reported, progress }: Omit<RoundState, 'id'>, binding: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    cipher.setAAD(Buffer.from(binding, 'utf8'))
    const payload = { id: randomUUID(), exp: Date.now() + ttlSeconds * 1000, toolName, callId, argumentsDigest, reported, progress, journal }
    const body = Buffer.concat([iv, cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
    return `${VERSION}${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`
  }

  function unseal(wire: string, binding: string): RoundState {
    const [body, tag] = wire.startsWith(VERSION) ? wire.slice(VERSION.length).split('.') : []
    if (!body || !tag) throw new Error('requestState is malformed')
    const bytes = Buffer.from(body, 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
    decipher.setAAD(Buffer.from(binding, 'utf8'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    let text: string
    try {
      text = Buffer.concat([decipher.update(bytes.subarray(12)), decipher.final()]).toString('utf8')
    } catch {
      throw new Error('requestState fails its seal: changed, sealed with another secret, or minted for another caller')
    }
    const { exp, ...state } = payloadSchema.parse(JSON.parse(text))
    if (exp <= Date.now()) throw new Error('requestState has expired')
    return state
  }
}
