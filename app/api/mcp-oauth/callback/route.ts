import { handleAccessRequest } from '@/lib/mcp/client/personal/handle-access-request'
import { getAccessApp } from '@/lib/server/mcp-access-instance'

export const dynamic = 'force-dynamic'

/** Where an MCP server's authorization server sends the person back (`code`, `state`): the tokens kept, then back to the chat. */
export async function GET(request: Request): Promise<Response> {
  return handleAccessRequest({ app: await getAccessApp(), request, endpoint: { action: 'callback' } })
}
