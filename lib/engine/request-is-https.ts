/**
 * Whether the browser reached us over HTTPS: the request URL says so, or — only when the
 * operator says a proxy in front of us terminates TLS (`TRUST_PROXY=1`) — the proxy's
 * `X-Forwarded-Proto` does. Without that trust, anyone could send the header.
 */
export function requestIsHttps({ request, trustProxy }: { request: Request; trustProxy: boolean }): boolean {
  if (new URL(request.url).protocol === 'https:') return true
  if (!trustProxy) return false
  // A chain of proxies appends: the first value is what the client spoke to the outermost one.
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return forwarded === 'https'
}

/** `TRUST_PROXY=1` (or `true`): a proxy we run sits in front and its `X-Forwarded-*` headers are believed. */
export function readTrustProxy(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.TRUST_PROXY?.trim().toLowerCase()
  return value === '1' || value === 'true'
}
