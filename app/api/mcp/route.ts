import { getMcpEndpoint } from '@/lib/server/mcp-server-instance'

export const dynamic = 'force-dynamic'

/** The MCP server (Streamable HTTP): every plugin tool, for 2025 sessions and 2026-07-28 rounds. */
async function handle(request: Request): Promise<Response> {
  const endpoint = await getMcpEndpoint()
  return endpoint.handle(request)
}

export { handle as GET, handle as POST, handle as DELETE }
