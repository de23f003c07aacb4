import { getAdminApp } from '@/lib/server/admin-app'
import { handleAdminRequest } from '@/lib/server/handle-admin-requests'

export const dynamic = 'force-dynamic'

/** The operator's view, for an admin: waiting calls, MCP servers, refusals of the last hour, model use. */
export async function GET(request: Request): Promise<Response> {
  return handleAdminRequest({ app: await getAdminApp(), request, endpoint: 'operator' })
}
