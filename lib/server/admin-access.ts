import { createHash, timingSafeEqual } from 'node:crypto'
import { adminTokenCheck } from '../budgets'
import { readTrustProxy, requestIsHttps } from '../http'
import { createAdminCookie } from './admin-cookie'
import { readBudgetConfig } from './budget-instance'
import { getSignIn } from './sign-in-instance'

/** Who is an admin, and the cookie that `ADMIN_TOKEN` is exchanged for. */
export interface AdminAccess {
  /** Whether `request` is an admin's: a signed-in admin (`AUTH_ADMIN_*`), `Authorization: Bearer <ADMIN_TOKEN>`, or the admin cookie. */
  isAdmin(request: Request): Promise<boolean>
  /** Whether an `ADMIN_TOKEN` is configured (the page offers its form only then). */
  readonly tokenConfigured: boolean
  /** The admin cookie's `Set-Cookie` for `token` when it is `ADMIN_TOKEN`; undefined otherwise. */
  exchange(token: string, request: Request): string | undefined
  /** The `Set-Cookie` that ends the admin cookie. */
  clear(request: Request): string
}

/**
 * The app's admins, from the environment: read at each call (the token and sign-in are set once
 * per process, so this costs a hash at most).
 */
export async function getAdminAccess(env: Readonly<Record<string, string | undefined>> = process.env): Promise<AdminAccess> {
  const signIn = await getSignIn()
  const token = readBudgetConfig(env).adminToken
  const byBearer = adminTokenCheck(token)
  const cookie = token ? createAdminCookie(token) : undefined
  const https = (request: Request) => requestIsHttps({ request, trustProxy: readTrustProxy(env) })
  const expected = token ? createHash('sha256').update(token).digest() : undefined
  return {
    tokenConfigured: Boolean(token),
    async isAdmin(request) {
      if (byBearer(request) || cookie?.check(request)) return true
      return signIn ? (await signIn.signIn.account(request))?.isAdmin === true : false
    },
    exchange(given, request) {
      if (!cookie || !expected) return undefined
      // Both sides hashed first: the comparison's time says nothing of the token, its length included.
      if (!timingSafeEqual(createHash('sha256').update(given).digest(), expected)) return undefined
      return cookie.issue(https(request))
    },
    clear: (request) => (cookie ?? createAdminCookie('none')).clear(https(request)),
  }
}
