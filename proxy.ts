import { NextResponse, type NextRequest } from 'next/server'
import { pageGate } from './lib/auth/page-gate'
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
 * after (`pageGate`); the APIs refuse such a request themselves (401 `sign_in_required`). While
 * the sessions' store cannot be reached, a page is a short 503 saying so, not a server error.
 */
export async function proxy(request: NextRequest) {
  const gate = await pageGate(request, `${request.nextUrl.pathname}${request.nextUrl.search}`)
  if (gate.kind === 'sign-in') return NextResponse.redirect(gate.location, { status: 303, headers: { 'Cache-Control': 'no-store' } })
  if (gate.kind === 'unavailable') return unavailablePage()
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

/** The page while sign-in cannot be checked: plain HTML, no script, light and dark, retried by the browser after a few seconds. */
function unavailablePage(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Sign-in is unavailable</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5"><h1 style="font-size: 1.25rem">Sign-in cannot be checked right now</h1><p>The chat cannot reach where it keeps sign-ins. Nothing is lost: try again in a moment.</p><p><a href="">Try again</a></p></body></html>`
  return new Response(html, {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" },
  })
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
