import { NextResponse, type NextRequest } from 'next/server'
import { pageSignInRedirect } from './lib/auth/page-gate'
import { pageIdentityHeaders } from './lib/http/page-identity'
import { readTrustProxy, requestIsHttps } from './lib/http/request-is-https'
import { createContentSecurityPolicy } from './lib/server/content-security-policy'

/**
 * A fresh CSP nonce for every page (Next 16's documented way to a CSP without
 * 'unsafe-inline'): Next reads the nonce from the request's Content-Security-Policy header
 * and puts it on every script it renders, including its inline RSC payload. Hashes cannot
 * cover that payload (it differs per render), and the experimental SRI option covers only
 * files. The cost is that pages render per request, which a one-page chat pays anyway.
 *
 * The other headers (nosniff, Referrer-Policy, X-Frame-Options) and the API's own CSP are
 * static, in next.config.ts. A page also brings the browser's identity cookie when it has none
 * (`pageIdentityHeaders`), so that the page's first requests share one identity.
 *
 * With sign-in configured, a page asked for without a session is sent to sign in, and back to it
 * after (`pageSignInRedirect`); the APIs refuse such a request themselves (401 `sign_in_required`).
 */
export async function proxy(request: NextRequest) {
  const signIn = await pageSignInRedirect(request, `${request.nextUrl.pathname}${request.nextUrl.search}`)
  if (signIn) return NextResponse.redirect(signIn, { status: 303, headers: { 'Cache-Control': 'no-store' } })
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64')
  const policy = createContentSecurityPolicy({
    nonce,
    https: requestIsHttps({ request, trustProxy: readTrustProxy() }),
    development: process.env.NODE_ENV === 'development',
  })
  const requestHeaders = new Headers(request.headers)
  requestHeaders.set('content-security-policy', policy)
  const response = NextResponse.next({ request: { headers: requestHeaders } })
  response.headers.set('Content-Security-Policy', policy)
  // The browser's identity comes with the page, before any of its requests (page-identity.ts).
  for (const [name, value] of Object.entries(pageIdentityHeaders(request))) response.headers.append(name, value)
  return response
}

export const config = {
  matcher: [
    // Pages only: the API answers data with a static policy (next.config.ts), and static
    // files need none. A future MCP Apps sandbox route is left out here too: it gets its own
    // policy, one that lets the chat frame it.
    {
      source: '/((?!api/|\.well-known/|_next/static|_next/image|favicon.ico|icon.svg).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
}
