import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'

/**
 * What a ticket is good for. A `frame` ticket is in the iframe's URL, so the app can read
 * it; it only loads the app's HTML. A `bridge` ticket stays in the chat page (the app never
 * sees it) and lets that page call tools of the app's own server for it.
 */
export type AppTicketKind = 'frame' | 'bridge'

export interface AppTicket {
  kind: AppTicketKind
  /** The browser that opened the app (its identity cookie); nobody else may use the ticket. */
  clientId: string
  server: string
  /** The tool whose app this is, by its own name on `server`. */
  tool: string
  uri: string
  /** Milliseconds since the epoch. */
  expiresAt: number
}

const payloadSchema = z.object({
  k: z.enum(['frame', 'bridge']),
  c: z.string().min(1).max(100),
  s: z.string().min(1).max(200),
  t: z.string().min(1).max(200),
  u: z.string().min(1).max(2_000),
  e: z.number().int(),
})

export interface AppTicketCodec {
  issue(ticket: Omit<AppTicket, 'expiresAt'>): string
  /** The ticket if it is one we signed, of this kind, for this client, not expired; else undefined. */
  verify(options: { token: string; kind: AppTicketKind; clientId: string }): AppTicket | undefined
}

/**
 * Tickets are signed, not stored (`<base64url JSON>.<HMAC-SHA256>`): any instance that shares
 * the secret accepts them, a restart loses none, and nothing piles up per opened app.
 */
export function createAppTicketCodec({ secret, ttlMs = 24 * 60 * 60 * 1000, now = Date.now }: { secret: string; ttlMs?: number; now?: () => number }): AppTicketCodec {
  if (!secret) throw new TypeError('createAppTicketCodec needs a non-empty secret')
  // A key of its own: a ticket can never pass for another signed thing of the app, nor one for it.
  const key = createHmac('sha256', secret).update('mcp-apps ticket v1').digest()
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest()
  return {
    issue({ kind, clientId, server, tool, uri }) {
      const payload = Buffer.from(JSON.stringify({ k: kind, c: clientId, s: server, t: tool, u: uri, e: now() + ttlMs })).toString('base64url')
      return `${payload}.${sign(payload).toString('base64url')}`
    },
    verify({ token, kind, clientId }) {
      if (token.length > 4_000) return undefined
      const [payload, signature, extra] = token.split('.')
      if (!payload || !signature || extra !== undefined) return undefined
      const given = Buffer.from(signature, 'base64url')
      const expected = sign(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      let decoded: unknown
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
      } catch {
        return undefined
      }
      const parsed = payloadSchema.safeParse(decoded)
      if (!parsed.success) return undefined
      const { k, c, s, t, u, e } = parsed.data
      if (k !== kind || c !== clientId || e <= now()) return undefined
      return { kind: k, clientId: c, server: s, tool: t, uri: u, expiresAt: e }
    },
  }
}
