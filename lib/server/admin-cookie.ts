import { createHmac, timingSafeEqual } from 'node:crypto'
import { readCookies } from '../http'

/** How long an admin cookie lasts: a working day. */
export const ADMIN_COOKIE_MS = 8 * 60 * 60 * 1000

/** The admin cookie's name: `__Host-` over HTTPS (then it cannot be set by a sub-domain nor sent over HTTP). */
export const ADMIN_COOKIE = 'elicit_admin'
export const SECURE_ADMIN_COOKIE = `__Host-${ADMIN_COOKIE}`

/** What the admin cookie is made and checked with. */
export interface AdminCookie {
  /** The `Set-Cookie` that makes the browser an admin's until the cookie expires. */
  issue(https: boolean): string
  /** The `Set-Cookie` that ends it. */
  clear(https: boolean): string
  /** Whether `request` carries an admin cookie this token made, not expired. */
  check(request: Request): boolean
}

/**
 * The cookie a browser gets for `ADMIN_TOKEN` (`POST /api/admin/session`), so that the token is
 * typed once into a form and never kept by the page, put in an address or sent again: its expiry
 * and an HMAC of it keyed with the token. `HttpOnly` (no script reads it), `SameSite=Strict` (no
 * other site's page sends it), `Path=/`. A new `ADMIN_TOKEN` ends every cookie the old one made.
 */
export function createAdminCookie(token: string, now: () => number = Date.now): AdminCookie {
  const mac = (expires: string) => createHmac('sha256', token).update(`elicit-admin-cookie:${expires}`).digest('base64url')
  const attributes = (https: boolean, maxAge: number) => `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${https ? '; Secure' : ''}`
  return {
    issue(https) {
      const expires = String(now() + ADMIN_COOKIE_MS)
      return `${https ? SECURE_ADMIN_COOKIE : ADMIN_COOKIE}=${expires}.${mac(expires)}; ${attributes(https, ADMIN_COOKIE_MS / 1000)}`
    },
    clear: (https) => `${https ? SECURE_ADMIN_COOKIE : ADMIN_COOKIE}=; ${attributes(https, 0)}`,
    check(request) {
      const header = request.headers.get('cookie') ?? ''
      for (const value of [...readCookies(header, SECURE_ADMIN_COOKIE), ...readCookies(header, ADMIN_COOKIE)]) {
        const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value)
        if (!match || Number(match[1]) <= now()) continue
        if (timingSafeEqual(Buffer.from(match[2]!), Buffer.from(mac(match[1]!)))) return true
      }
      return false
    },
  }
}
