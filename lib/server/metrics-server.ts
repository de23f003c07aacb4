import http from 'node:http'
import { UNOBSERVED } from '../http'
import type { Logger, ServerMetrics } from '../telemetry'
import { getChatApp } from './chat-server-instance'
import { getMcpEndpoint } from './mcp-server-instance'

/**
 * `METRICS_PORT` (on `METRICS_HOST`, default 127.0.0.1): Prometheus's text format at
 * `GET /metrics`, on a listener of its own, never the public port. Its scrapes are not logged
 * nor counted as the app's requests. The waiting tool sessions are read from the session store
 * at each scrape (the sessions' own records, no second count), and the MCP sessions open from the
 * MCP endpoint's records. Resolves once it listens; fails
 * the start when the port cannot be had.
 */
export async function startMetricsServer({ port, host, metrics, logger }: { port: number; host: string; metrics: ServerMetrics; logger: Logger }): Promise<http.Server> {
  const { chat } = await getChatApp()
  metrics.countWaitingSessions(async () => {
    const counts = new Map<string, number>()
    // The list the operator's view shows (`/admin`): one read of the store's records, two readers.
    for (const call of await chat.listWaiting()) counts.set(call.toolName, (counts.get(call.toolName) ?? 0) + 1)
    return counts
  })
  // The MCP endpoint's session records, which its cap counts: every instance's on the store.
  metrics.countMcpSessions(async () => (await getMcpEndpoint()).openSessions())
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics.\n')
      return
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        logger.error('metrics scrape failed', { error: error instanceof Error ? error.message : String(error) })
        response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected; the server log says why.\n')
      },
    )
  }) as http.Server & { [UNOBSERVED]?: boolean }
  server[UNOBSERVED] = true
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // It must not keep a stopping process alive: the app's own listener decides when it exits.
  server.unref()
  return server
}

/** `METRICS_PORT` and `METRICS_HOST`; undefined when no port is set (no metrics served). */
export function readMetricsConfig(env: Record<string, string | undefined> = process.env): { port: number; host: string } | undefined {
  const text = env.METRICS_PORT?.trim()
  if (!text) return undefined
  const port = Number(text)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`METRICS_PORT must be a port number (1–65535); got "${env.METRICS_PORT}".`)
  // The app's port: PORT, else the 3000 that `npm start` and `next dev` listen on without it.
  if (port === Number(env.PORT?.trim() || 3000)) throw new Error(`METRICS_PORT must not be the app's own PORT (${port}): the metrics are never served on the public port.`)
  return { port, host: env.METRICS_HOST?.trim() || '127.0.0.1' }
}
