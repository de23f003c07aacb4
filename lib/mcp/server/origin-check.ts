import { originValidationResponse } from '@modelcontextprotocol/server'

/**
 * A request sent by a browser page that is not this server's own, refused with 403 (a JSON-RPC
 * error, as the SDK's `originValidationResponse` answers); undefined when it may go on.
 *
 * - No `Origin` passes: only browsers send one, and the MCP clients that are not browsers (the
 *   official SDKs, MCP Inspector's server-side connection, `mcp-remote`) send none.
 * - The Origin's host name must be one of `allowedHosts` (the SDK's check).
 * - A web page's Origin (`http:`, `https:`) must also name the port the request was sent to, as
 *   its `Host` header says (a port left out on either side is the scheme's default): a page on
 *   another local port, `http://localhost:9999`, is another site, whatever the host name.
 *
 * The `Host` header must already have been checked (`hostHeaderValidationResponse`). Behind a
 * proxy, the proxy must pass on the `Host` the client sent (nginx: `proxy_set_header Host $http_host`)
 * for browsers' requests to pass; clients that are not browsers are unaffected.
 */
export function originRefusal(request: Request, allowedHosts: readonly string[]): Response | undefined {
  const refused = originValidationResponse(request, [...allowedHosts])
  if (refused) return refused
  const origin = request.headers.get('origin')
  if (!origin) return undefined
  // Parsed by the SDK's check already; a page's origin is http or https.
  const page = new URL(origin)
  if (page.protocol !== 'http:' && page.protocol !== 'https:') return undefined
  let addressed: URL
  try {
    // Read with the page's scheme, so that a default port compares equal however it was written.
    addressed = new URL(`${page.protocol}//${request.headers.get('host') ?? ''}`)
  } catch {
    return refusal(`Invalid Host header: ${request.headers.get('host')}`)
  }
  if (page.port === addressed.port) return undefined
  return refusal(`Invalid Origin: ${page.host} is not this server's origin (port ${addressed.port || defaultPort(page.protocol)}, not ${page.port || defaultPort(page.protocol)})`)
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80'
}

function refusal(message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 403 })
}
