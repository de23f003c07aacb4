import { answerAppRequest, McpAppError } from '@/lib/mcp/apps'
import { getMcpAppsApp } from '@/lib/server/mcp-apps-instance'

export const dynamic = 'force-dynamic'

const TICKET = /^[A-Za-z0-9_-]{1,3000}\.[A-Za-z0-9_-]{43}$/

/**
 * An MCP App's HTML, as the `src` of its iframe in the chat. Its own Content-Security-Policy
 * (with `sandbox`) gives it an opaque origin; next.config.ts leaves this path out of the
 * API's headers (`frame-ancestors 'none'`, `X-Frame-Options: DENY`) so that the chat can frame it.
 */
export async function GET(request: Request, { params }: { params: Promise<{ ticket: string }> }): Promise<Response> {
  const { ticket } = await params
  const response = await answerAppRequest({
    request,
    app: await getMcpAppsApp(),
    async handle({ host, asker }) {
      if (!TICKET.test(ticket)) throw new McpAppError('unknown_frame', 'No such app frame.')
      return host.serveFrame({ ...asker, ticket, signal: request.signal })
    },
  })
  // A refusal is shown where the app would have been: sandboxed too, and nothing in it runs.
  if (!response.ok) response.headers.set('Content-Security-Policy', "sandbox; default-src 'none'; frame-ancestors 'self'")
  return response
}
