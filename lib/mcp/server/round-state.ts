import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto'
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server'
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
}

export interface RoundStateCodec {
  mint(state: Omit<RoundState, 'id'>, ctx: ServerContext): Promise<string>
  /** For `ServerOptions.requestState.verify`: throws on a state that is tampered, expired or someone else's. */
  verify(wire: string, ctx: ServerContext): Promise<RoundState>
}

const sealedSchema = z.object({ id: z.string(), sealed: z.string() })
const journalSchema = z.object({ toolName: z.string(), callId: z.string(), argumentsDigest: z.string(), reported: z.number().int().nonnegative(), journal: z.array(z.custom<JournalEntry>((v) => typeof v === 'object' && v !== null)) })

/**
 * `requestState` for 2026-07-28 rounds. The SDK's codec signs it (HMAC of `secret`, an expiry,
 * a binding to the caller and the call); the journal inside is also encrypted (AES-256-GCM under
 * a key derived from the same secret), because a journal holds what the tool keeps from the
 * user — a handoff's `before` result, such as pick_card's secret card. Every instance with the
 * same secret reads the states of the others.
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
  const signed = createRequestStateCodec<z.infer<typeof sealedSchema>>({ key: secret, ttlSeconds, bind })
  const key = Buffer.from(hkdfSync('sha256', secret, 'elicit-chat', 'mcp request state encryption', 32))

  return {
    async mint({ toolName, callId, argumentsDigest, journal, reported }, ctx) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify({ toolName, callId, argumentsDigest, journal, reported }), 'utf8'), cipher.final()])
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
      return signed.mint({ id: randomUUID(), sealed }, ctx)
    },
    async verify(wire, ctx) {
      const { id, sealed } = sealedSchema.parse(await signed.verify(wire, ctx))
      const bytes = Buffer.from(sealed, 'base64url')
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
      decipher.setAuthTag(bytes.subarray(12, 28))
      const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
      return { id, ...journalSchema.parse(JSON.parse(text)) }
    },
  }
}
