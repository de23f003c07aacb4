export const dynamic = 'force-dynamic'

/** Liveness for load balancers, and the benchmark's floor: the cheapest route on this server. */
export function GET(): Response {
  return Response.json({ ok: true })
}
