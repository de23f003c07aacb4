import { isAuthStoreUnavailable } from './auth-store'
import type { SignIn } from './sign-in'

const INSTALLED = Symbol.for('elicit-chat.sign-in-gate')
const slot = globalThis as typeof globalThis & { [INSTALLED]?: SignIn }

/**
 * Installs the sign-in for the proxy (proxy.ts), as page-identity.ts does the browser identity:
 * once per process, from instrumentation; the proxy runs in the server's own process and reads
 * it here, so its bundle stays free of the server. Installed only when sign-in is configured.
 */
export function installSignIn(signIn: SignIn): void {
  slot[INSTALLED] = signIn
}

/** What the proxy does with a page request before rendering it. */
export type PageGate = { kind: 'render' } | { kind: 'sign-in'; location: string } | { kind: 'unavailable' }

/**
 * What the proxy does with a page request: render it when sign-in is not configured, the page
 * is one of the sign-in's own (`/auth/...`), guests may chat (`AUTH_GUESTS=on`: a visitor without
 * a session is one), or the visitor is signed in; else send the visitor to sign in, with the way
 * back to `path` (the page's path and query). When the sessions' store cannot be reached (Redis
 * down), `unavailable`: the proxy answers a 503 page, not an error.
 */
export async function pageGate(request: Request, path: string): Promise<PageGate> {
  const signIn = slot[INSTALLED]
  if (!signIn || signIn.guests || path.startsWith('/auth/')) return { kind: 'render' }
  try {
    return (await signIn.account(request)) ? { kind: 'render' } : { kind: 'sign-in', location: signIn.signInUrl(path) }
  } catch (error) {
    if (isAuthStoreUnavailable(error)) return { kind: 'unavailable' }
    throw error
  }
}
