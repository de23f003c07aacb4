import { handleAccessRequest } from '@/lib/mcp/client/personal/handle-access-request'
import { getAccessApp } from '@/lib/server/mcp-access-instance'

export const dynamic = 'force-dynamic'

/** Forget this person's access to a server (its tokens revoked where the authorization server offers it, RFC 7009): `{ server }` → `{ disconnected, revoked }`. */
export async function POST(request: Request): Promise<Response> {
  return handleAccessRequest({ app: await getAccessApp(), request, endpoint: { action: 'disconnect' } })
}
