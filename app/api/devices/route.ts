import { handleDevicesRequest } from '@/lib/devices'
import { getDevicesApp } from '@/lib/server/devices-instance'

export const dynamic = 'force-dynamic'

/** The browsers of this browser's identity: `{ browsers: [{ id, name, joinedAt, current, revocable }] }`. */
export async function GET(request: Request): Promise<Response> {
  return handleDevicesRequest({ app: await getDevicesApp(), request, endpoint: { action: 'list' } })
}
