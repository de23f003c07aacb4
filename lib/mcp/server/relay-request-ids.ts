import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/** The prefix of the JSON-RPC ids of the relay's requests to clients. */
const PREFIX = 'mcp-call/'
const FORM = /^mcp-call\/([0-9a-f-]{36})\/(\d{1,9})\/([^/]{1,200})\/([A-Za-z0-9_-]{22})$/

/**
 * The JSON-RPC ids of the requests the relay sends a 2025 client (call-relay.ts):
 * `mcp-call/<call>/<round>/<input key>/<mac>`, the MAC an HMAC of the session, call, round and key
 * under a key derived from the secret every instance shares. Made and parsed here only.
 *
 * Invariant: `parse` gives back what `of` was given for the same session, and nothing for any
 * other id — another session's, an edited one, a made-up one — so an answer names its question
 * without a lookup, and admission can trust it (mcp-work-in-progress.ts).
 */
export class RelayRequestIds {
  private readonly key: Buffer

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'elicit-chat', 'mcp relay request ids', 32))
  }

  /** Whether `id` has the relay's form (genuine or not: `parse` tells). */
  static looksLike(id: string): boolean {
    return id.startsWith(PREFIX)
  }

  of(sessionId: string, callId: string, round: number, key: string): string {
    return `${PREFIX}${callId}/${round}/${encodeURIComponent(key)}/${this.macOf(sessionId, callId, round, key)}`
  }

  parse(id: string, sessionId: string): { callId: string; round: number; key: string } | undefined {
    const match = FORM.exec(id)
    if (!match) return undefined
    const [, callId, round, encodedKey, mac] = match
    let key: string
    try {
      key = decodeURIComponent(encodedKey!)
    } catch {
      return undefined
    }
    const expected = Buffer.from(this.macOf(sessionId, callId!, Number(round), key))
    const given = Buffer.from(mac!)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
    return { callId: callId!, round: Number(round), key }
  }

  private macOf(sessionId: string, callId: string, round: number, key: string): string {
    return createHmac('sha256', this.key).update(`${sessionId}\0${callId}\0${round}\0${key}`).digest('base64url').slice(0, 22)
  }
}
