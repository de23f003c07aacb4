import { getAdminApp } from '@/lib/server/admin-app'
import { handleAdminRequest } from '@/lib/server/handle-admin-requests'

export const dynamic = 'force-dynamic'

/** `{ token }`: ADMIN_TOKEN exchanged for the admin cookie (HttpOnly), so a browser never keeps the token. */
export async function POST(request: Request): Promise<Response> {
  return handleAdminRequest({ app: await getAdminApp(), request, endpoint: 'start-session' })
}

/** Ends the admin cookie. */
export async function DELETE(request: Request): Promise<Response> {
  return handleAdminRequest({ app: await getAdminApp(), request, endpoint: 'end-session' })
}
