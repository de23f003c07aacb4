import { handleAccessRequest } from '@/lib/mcp/client/personal/handle-access-request'
import { getAccessApp } from '@/lib/server/mcp-access-instance'

export const dynamic = 'force-dynamic'

/** The chat's OAuth client ID metadata document: its URL is the chat's `client_id` at authorization servers that support them. */
export async function GET(request: Request): Promise<Response> {
  return handleAccessRequest({ app: await getAccessApp(), request, endpoint: { action: 'client-metadata' } })
}
