import { handleAccessRequest } from '@/lib/mcp/client/personal/handle-access-request'
import { getAccessApp } from '@/lib/server/mcp-access-instance'

export const dynamic = 'force-dynamic'

/** Start connecting this person to a server of mcp.json that asks each person to: `{ server, returnTo? }` → `{ authorizationUrl }`, where to send the browser. */
export async function POST(request: Request): Promise<Response> {
  return handleAccessRequest({ app: await getAccessApp(), request, endpoint: { action: 'connect' } })
}
