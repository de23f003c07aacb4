import { handleDevicesRequest } from '@/lib/devices'
import { getDevicesApp } from '@/lib/server/devices-instance'

export const dynamic = 'force-dynamic'

type Context = { params: Promise<{ id: string }> }

/** Revokes a browser of this identity (not this browser, not the identity's first). */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleDevicesRequest({ app: await getDevicesApp(), request, endpoint: { action: 'revoke', id: (await params).id } })
}
