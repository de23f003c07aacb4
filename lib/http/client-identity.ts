import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Person } from './people-list'
import { requestIsHttps } from './request-is-https'

/** The identity cookie on plain http (localhost, development). */
export const CLIENT_COOKIE = 'chat_client_id'
/**
 * The identity cookie over HTTPS. Browsers accept a `__Host-` cookie only if it is `Secure`,
 * has `Path=/` and no `Domain`: a sibling subdomain or a plain-http page cannot plant or
 * overwrite it.
 */
export const SECURE_CLIENT_COOKIE = `__Host-${CLIENT_COOKIE}`
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60
const ID_BYTES = 24
const ID = /^[A-Za-z0-9_-]{32,64}$/
/** A joined browser's id: 16 random bytes, base64url (22 characters). */
const BROWSER = /^[A-Za-z0-9_-]{22}$/
const BROWSER_BYTES = 16
/** HMAC-SHA256 is 32 bytes: 43 characters of unpadded base64url. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/

export interface ClientIdentity {
  clientId: string
  /** Headers to send back: a Set-Cookie when the identity is new. */
  headers: Record<string, string>
  /**
   * Which of the identity's browsers is asking: set for a browser that joined the identity with
   * a code (lib/devices), absent for the identity's first browser (the one it was made in).
   */
  browserId?: string
  /**
   * With sign-in configured, the signed-in person (address, groups, admin): what decides which
   * external MCP servers' tools they may use (lib/mcp/client/tool-audience.ts). Absent without
   * sign-in, where the browser is the person and may use every tool.
   */
  person?: Person
}

export interface ClientIdentityResolver {
  /** Who is asking: the identity in the request's cookie, or a fresh one (with a Set-Cookie). */
  resolve(request: Request): ClientIdentity
  /**
   * Who is asking, as every API route asks it first: `resolve`'s answer for the browser identity;
   * with sign-in configured (lib/auth), the signed-in account, checked against the store (and,
   * once a minute, the provider) — or a rejection with the 401 `sign_in_required` refusal.
   */
  identify(request: Request): Promise<ClientIdentity>
  /**
   * The Set-Cookie that makes the requesting browser a browser of `clientId`, named `browserId`
   * (lib/devices calls it once the join is stored): the same cookie name and attributes as
   * `resolve` gives, so it replaces whatever identity the browser had.
   */
  joinCookie(request: Request, joined: { clientId: string; browserId: string }): Record<string, string>
  /** A new joined browser's id: 16 random bytes, base64url. */
  newBrowserId(): string
}

/**
 * Whether a joined browser's cookie no longer names its identity (lib/devices' store answers).
 * Synchronous on purpose: `resolve` is called first thing by every route and is synchronous, so
 * the answer comes from the process (a set kept current by the store) or a local point read,
 * never a network round trip.
 */
export type BrowserRevoked = (clientId: string, browserId: string) => boolean

/**
 * The browser's identity: an unguessable id (24 random bytes) in an HttpOnly cookie, given on
 * first contact and signed with the server's secret as `<id>.<HMAC-SHA256(secret, id)>`.
 * Plugin sessions belong to it, so only the browser that started one can answer or abort it.
 *
 * Invariant: an id is accepted only with a signature made by the same secret, so every
 * instance that shares `SESSION_SECRET` accepts a cookie another issued, and a cookie that
 * is missing, malformed, forged or signed with another secret is replaced by a fresh identity.
 *
 * Several browsers, one identity ("Continue on another device", docs/devices.md): a browser that
 * joined with a code holds `<id>.<browser>.<HMAC-SHA256(secret, "<id>.<browser>")>`, which names
 * the identity and which of its browsers this is. The identity's first browser keeps the two-part
 * cookie, unchanged, so nobody is logged out and the first browser — everyone who never joins
 * anything — pays nothing new per request: the same one HMAC, no lookup. The two signed strings
 * cannot be confused: an id never contains a dot, `<id>.<browser>` always does. Only a joined
 * browser's cookie is checked against `revoked` (one more call per request, answered in-process
 * or by a local point read, see `BrowserRevoked`); a revoked one is treated as forged, so the
 * browser gets a fresh identity of its own with its next request. Hence the first browser cannot
 * be revoked: checking it would charge everyone.
 *
 * Over HTTPS (`X-Forwarded-Proto: https` from a proxy we trust, see request-is-https.ts), the
 * cookie is `__Host-chat_client_id` and `Secure`, and only that name is read; on plain http it
 * is `chat_client_id`.
 */
export function createClientIdentity({
  secret,
  trustProxy = false,
  revoked,
}: {
  secret: string
  trustProxy?: boolean
  /** Whether a joined browser was revoked; without it, joined browsers cannot be revoked. */
  revoked?: BrowserRevoked
}): ClientIdentityResolver {
  if (!secret) throw new TypeError('createClientIdentity needs a non-empty secret')
  const sign = (signed: string) => createHmac('sha256', secret).update(signed).digest()
  const signedBy = (signed: string, signature: string) => {
    const given = Buffer.from(signature, 'base64url')
    const expected = sign(signed)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  /** The identity a cookie value names, or undefined. The two-part (first browser) path is the old one, step for step. */
  function verify(value: string): ClientIdentity | undefined {
    const dot = value.indexOf('.')
    if (dot < 0) return undefined
    const id = value.slice(0, dot)
    const second = value.indexOf('.', dot + 1)
    if (second < 0) {
      const signature = value.slice(dot + 1)
      if (!ID.test(id) || !SIGNATURE.test(signature)) return undefined
      return signedBy(id, signature) ? { clientId: id, headers: {} } : undefined
    }
    const browser = value.slice(dot + 1, second)
    const signature = value.slice(second + 1)
    if (!ID.test(id) || !BROWSER.test(browser) || !SIGNATURE.test(signature)) return undefined
    if (!signedBy(value.slice(0, second), signature)) return undefined
    return revoked?.(id, browser) ? undefined : { clientId: id, browserId: browser, headers: {} }
  }

  function cookie(request: Request, value: string): Record<string, string> {
    const secure = requestIsHttps({ request, trustProxy })
    const name = secure ? SECURE_CLIENT_COOKIE : CLIENT_COOKIE
    const attributes = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${ONE_YEAR_SECONDS}`, ...(secure ? ['Secure'] : [])]
    return { 'Set-Cookie': attributes.join('; ') }
  }

  const resolver: ClientIdentityResolver = {
    resolve(request): ClientIdentity {
      const name = requestIsHttps({ request, trustProxy }) ? SECURE_CLIENT_COOKIE : CLIENT_COOKIE
      // Every value under our name is tried: a planted duplicate must not hide the real one.
      for (const value of readCookies(request.headers.get('cookie') ?? '', name)) {
        const existing = verify(value)
        if (existing) return existing
      }
      const clientId = randomBytes(ID_BYTES).toString('base64url')
      return { clientId, headers: cookie(request, `${clientId}.${sign(clientId).toString('base64url')}`) }
    },
    joinCookie(request, { clientId, browserId }) {
      if (!ID.test(clientId) || !BROWSER.test(browserId)) throw new TypeError('joinCookie: not an identity and a browser id')
      return cookie(request, `${clientId}.${browserId}.${sign(`${clientId}.${browserId}`).toString('base64url')}`)
    },
    newBrowserId: () => randomBytes(BROWSER_BYTES).toString('base64url'),
    identify: async (request) => resolver.resolve(request),
  }
  return resolver
}

/** Every value of the cookie `name` in a Cookie header (a planted duplicate must not hide the real one). */
export function readCookies(header: string, name: string): string[] {
  const values: string[] = []
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) values.push(rest.join('='))
  }
  return values
}
