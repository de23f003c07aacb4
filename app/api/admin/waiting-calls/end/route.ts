import { getAdminApp } from '@/lib/server/admin-app'
import { handleAdminRequest } from '@/lib/server/handle-admin-requests'

export const dynamic = 'force-dynamic'

/** `{ account, callId }`: an admin ends a tool call waiting for that account's answer. */
export async function POST(request: Request): Promise<Response> {
  return handleAdminRequest({ app: await getAdminApp(), request, endpoint: 'end-waiting-call' })
}
