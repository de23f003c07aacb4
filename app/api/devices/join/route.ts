import { handleDevicesRequest } from '@/lib/devices'
import { getDevicesApp } from '@/lib/server/devices-instance'

export const dynamic = 'force-dynamic'

/** Joins this browser to the identity of `{ code }`: its cookie names that identity from now on. */
export async function POST(request: Request): Promise<Response> {
  return handleDevicesRequest({ app: await getDevicesApp(), request, endpoint: { action: 'join' } })
}
