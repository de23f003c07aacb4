import { randomBytes } from 'node:crypto'

export const CLIENT_COOKIE = 'chat_client_id'
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60
const VALID = /^[A-Za-z0-9_-]{32,64}$/

export interface ClientIdentity {
  clientId: string
  /** Headers to send back: a Set-Cookie when the identity is new. */
  headers: Record<string, string>
}

/**
 * The browser's identity: an unguessable id in an HttpOnly cookie, given on first contact.
 * Plugin sessions belong to it, so only the browser that started one can answer or abort it.
 */
export function resolveClientIdentity(request: Request): ClientIdentity {
  const existing = readCookie(request.headers.get('cookie') ?? '', CLIENT_COOKIE)
  if (existing && VALID.test(existing)) return { clientId: existing, headers: {} }
  const clientId = randomBytes(24).toString('base64url')
  const secure = new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https'
  const cookie = [
    `${CLIENT_COOKIE}=${clientId}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${ONE_YEAR_SECONDS}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ')
  return { clientId, headers: { 'Set-Cookie': cookie } }
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return undefined
}
