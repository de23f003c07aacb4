/** One `GET /api/health`, the cheapest route on the server, timed to its last byte: the floor every ratio is taken against. */
export async function timeTrivialRoute(baseUrl: string): Promise<number> {
  const started = performance.now()
  await (await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) })).text()
  return performance.now() - started
}
