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

/**
 * Where the proxy sends a page request: nowhere (undefined) when sign-in is not configured, the
 * page is one of the sign-in's own (`/auth/...`), or the visitor is signed in; else the sign-in,
 * with the way back to `path` (the page's path and query).
 */
export async function pageSignInRedirect(request: Request, path: string): Promise<string | undefined> {
  const signIn = slot[INSTALLED]
  if (!signIn || path.startsWith('/auth/')) return undefined
  return (await signIn.account(request)) ? undefined : signIn.signInUrl(path)
}
