import { handleAccessRequest } from '@/lib/mcp/client/personal/handle-access-request'
import { getAccessApp } from '@/lib/server/mcp-access-instance'

export const dynamic = 'force-dynamic'

/** Keep this person's values for a server's `userVariables`: `{ server, values }` → `{ saved }`. */
export async function POST(request: Request): Promise<Response> {
  return handleAccessRequest({ app: await getAccessApp(), request, endpoint: { action: 'variables' } })
}
