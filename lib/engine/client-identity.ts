import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const CLIENT_COOKIE = 'chat_client_id'
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
 */
export function createClientIdentity({ secret }: { secret: string }): ClientIdentityResolver {
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
      const existing = verify(readCookie(request.headers.get('cookie') ?? '', CLIENT_COOKIE))
      if (existing) return { clientId: existing, headers: {} }
      const clientId = randomBytes(ID_BYTES).toString('base64url')
      const secure = new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https'
      const cookie = [
        `${CLIENT_COOKIE}=${clientId}.${sign(clientId).toString('base64url')}`,
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

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return undefined
}
