import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * The server's metrics, in one registry that `METRICS_PORT` serves to Prometheus
 * (`lib/server/metrics-server.ts`). Updated in the process as things happen (a histogram
 * observed, a counter added to): nothing per request beyond that. Names follow the OpenTelemetry
 * conventions where they have one, as a Prometheus exporter writes them (dots as underscores,
 * the unit as a suffix: `http.server.request.duration` is `http_server_request_duration_seconds`);
 * our own start with `elicit_`. Every label has a bounded set of values: routes, methods,
 * status codes, error codes, tool names — never an id. `docs/operating.md` lists them all.
 */
export interface ServerMetrics {
  registry: Registry
  /** `http.server.request.duration`: from the request reaching Next to its response's end (a streamed turn included). */
  httpRequestDuration: Histogram<'http_request_method' | 'http_route' | 'http_response_status_code'>
  /** Requests refused with a code of ours (`{ error: { code } }`), with the overload scope of a 429. */
  refusals: Counter<'code' | 'scope'>
  /** Reads, at each scrape, how many tool sessions wait for a person, by tool: the session store's own count. */
  countWaitingSessions(count: () => Promise<ReadonlyMap<string, number>>): void
}

/** `http.server.request.duration`'s buckets, as the conventions advise (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60]

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  let countWaiting: (() => Promise<ReadonlyMap<string, number>>) | undefined
  new Gauge({
    name: 'elicit_tool_sessions_waiting',
    help: 'Tool sessions waiting for a person to answer, by tool (read from the session store at each scrape).',
    labelNames: ['tool'],
    registers: [registry],
    async collect() {
      if (!countWaiting) return
      const counts = await countWaiting()
      this.reset()
      for (const [tool, count] of counts) this.set({ tool }, count)
    },
  })
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests (http.server.request.duration).',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'elicit_refusals_total',
      help: 'Requests refused with an error code of ours, by code and, for a 429, whose limit (address or server).',
      labelNames: ['code', 'scope'],
      registers: [registry],
    }),
    countWaitingSessions(count) {
      countWaiting = count
    },
  }
}

const globalForMetrics = globalThis as typeof globalThis & { serverMetrics?: ServerMetrics }

/** The process's metrics; kept on globalThis, since the routes run from another bundle than instrumentation. */
export function serverMetrics(): ServerMetrics {
  globalForMetrics.serverMetrics ??= createServerMetrics()
  return globalForMetrics.serverMetrics
}
