/**
 * Whether the browser reached us over HTTPS. Node's server behind `npm start` speaks plain
 * HTTP, so HTTPS can only end at a proxy in front of it, and only the proxy's
 * `X-Forwarded-Proto` can say so — believed only when the operator says that proxy is ours
 * (`TRUST_PROXY=1`). `request.url` is no evidence: Next builds its scheme from that same
 * header, whoever sent it.
 */
export function requestIsHttps({ request, trustProxy }: { request: Request; trustProxy: boolean }): boolean {
  if (!trustProxy) return false
  // A chain of proxies appends: the first value is what the client spoke to the outermost one.
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return forwarded === 'https'
}

/** `TRUST_PROXY=1`: a proxy we run sits in front and its `X-Forwarded-*` headers are believed. */
export function readTrustProxy(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env.TRUST_PROXY?.trim() === '1'
}
