import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
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
/** HMAC-SHA256 is 32 bytes: 43 characters of unpadded base64url. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/

export interface ClientIdentity {
  clientId: string
  /** Headers to send back: a Set-Cookie when the identity is new. */
  headers: Record<string, string>
}

export interface ClientIdentityResolver {
  /** Who is asking: the identity in the request's cookie, or a fresh one (with a Set-Cookie). */
  resolve(request: Request): ClientIdentity
}

/**
 * The browser's identity: an unguessable id (24 random bytes) in an HttpOnly cookie, given on
 * first contact and signed with the server's secret as `<id>.<HMAC-SHA256(secret, id)>`.
 * Plugin sessions belong to it, so only the browser that started one can answer or abort it.
 *
 * Invariant: an id is accepted only with a signature made by the same secret, so every
 * instance that shares `SESSION_SECRET` accepts a cookie another issued, and a cookie that
 * is missing, malformed, forged or signed with another secret is replaced by a fresh identity.
 *
 * Over HTTPS (`X-Forwarded-Proto: https` from a proxy we trust, see request-is-https.ts), the
 * cookie is `__Host-chat_client_id` and `Secure`, and only that name is read; on plain http it
 * is `chat_client_id`.
 */
export function createClientIdentity({ secret, trustProxy = false }: { secret: string; trustProxy?: boolean }): ClientIdentityResolver {
  if (!secret) throw new TypeError('createClientIdentity needs a non-empty secret')
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest()

  function verify(value: string | undefined): string | undefined {
    if (!value) return undefined
    const dot = value.lastIndexOf('.')
    if (dot < 0) return undefined
    const id = value.slice(0, dot)
    const signature = value.slice(dot + 1)
    if (!ID.test(id) || !SIGNATURE.test(signature)) return undefined
    const given = Buffer.from(signature, 'base64url')
    const expected = sign(id)
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined
  }

  return {
    resolve(request): ClientIdentity {
      const secure = requestIsHttps({ request, trustProxy })
      const name = secure ? SECURE_CLIENT_COOKIE : CLIENT_COOKIE
      // Every value under our name is tried: a planted duplicate must not hide the real one.
      const existing = readCookies(request.headers.get('cookie') ?? '', name).map(verify).find((id) => id !== undefined)
      if (existing) return { clientId: existing, headers: {} }
      const clientId = randomBytes(ID_BYTES).toString('base64url')
      const cookie = [
        `${name}=${clientId}.${sign(clientId).toString('base64url')}`,
        'Path=/',
        'HttpOnly',
        'SameSite=Lax',
        `Max-Age=${ONE_YEAR_SECONDS}`,
        ...(secure ? ['Secure'] : []),
      ].join('; ')
      return { clientId, headers: { 'Set-Cookie': cookie } }
    },
  }
}

function readCookies(header: string, name: string): string[] {
  const values: string[] = []
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) values.push(rest.join('='))
  }
  return values
}
