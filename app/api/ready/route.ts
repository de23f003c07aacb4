import { checkReadiness } from '@/lib/server/readiness'

export const dynamic = 'force-dynamic'

/**
 * Readiness for load balancers: 200 while this instance should be sent new work, 503 from the
 * start of a graceful stop or while a store does not answer (`lib/server/readiness.ts`). Liveness
 * is `/api/health`.
 */
export async function GET(): Promise<Response> {
  const readiness = await checkReadiness()
  return Response.json(readiness, { status: readiness.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
}
