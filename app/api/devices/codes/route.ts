import { handleDevicesRequest } from '@/lib/devices'
import { getDevicesApp } from '@/lib/server/devices-instance'

export const dynamic = 'force-dynamic'

/** A one-time code for another browser to join this identity: 201 `{ code, expiresAt, joinPath }`. */
export async function POST(request: Request): Promise<Response> {
  return handleDevicesRequest({ app: await getDevicesApp(), request, endpoint: { action: 'create-code' } })
}
