import { readCookies } from '../http'
import type { Signer } from './signed-value'

/** What each cookie of the sign-in holds, and for how long. */
const COOKIES = {
  /** The session: `<sessionId>.<accountId>`, signed. */
  session: 'chat_session',
  /** A sign-in under way: its `state`, signed, binding the callback to the browser that started it. */
  signIn: 'chat_sign_in',
  /** Who was refused, for the not-allowed page: their address, signed. */
  refused: 'chat_refused',
} as const

export type AuthCookie = keyof typeof COOKIES

/**
 * The sign-in's cookies: `HttpOnly`, `SameSite=Lax` (the provider's redirect back is a top-level
 * GET, which Lax lets through), `Path=/`; over HTTPS (an `https:` `APP_URL`) `Secure` and named
 * `__Host-…`, so that a sibling subdomain or a plain-http page cannot plant or overwrite them.
 */
export function createAuthCookies({ signer, secure }: { signer: Signer; secure: boolean }) {
  const nameOf = (cookie: AuthCookie) => (secure ? `__Host-${COOKIES[cookie]}` : COOKIES[cookie])
  return {
    /** The Set-Cookie that keeps `value` (signed) for `maxAgeSeconds`. */
    set(cookie: AuthCookie, value: string, maxAgeSeconds: number): string {
      return [`${nameOf(cookie)}=${signer.sign(cookie, value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ')
    },
    /** The Set-Cookie that removes it. */
    clear(cookie: AuthCookie): string {
      return [`${nameOf(cookie)}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0', ...(secure ? ['Secure'] : [])].join('; ')
    },
    /** The value of the first well-signed cookie of that name in the request (a planted duplicate cannot hide it). */
    read(request: Request, cookie: AuthCookie): string | undefined {
      for (const value of readCookies(request.headers.get('cookie') ?? '', nameOf(cookie))) {
        const verified = signer.verify(cookie, value)
        if (verified !== undefined) return verified
      }
      return undefined
    },
  }
}

export type AuthCookies = ReturnType<typeof createAuthCookies>
