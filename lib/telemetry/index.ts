/**
 * What the server tells its operator: the JSON log (`logger.ts`), the metrics Prometheus scrapes
 * (`metrics.ts`), the traces exported over OTLP (`tracing.ts`), and the bounded names both use for a request (`http-route.ts`). A leaf: it
 * imports nothing of ours, and the layers that observe something (the HTTP edge, the composition
 * root) import it. `docs/operating.md` lists every line's fields and every metric.
 */
export { createLogger, readLogContent, readLogLevel, serverLogger, LOG_LEVELS } from './logger'
export type { Logger, LogFields, LogLevel } from './logger'
export { createServerMetrics, serverMetrics } from './metrics'
export type { ServerMetrics } from './metrics'
export { createRefusalTally } from './refusal-tally'
export type { RefusalCount, RefusalTally } from './refusal-tally'
export { methodOf, routeOf, ROUTES } from './http-route'
export type { HttpRoute } from './http-route'
export { captureContent, flushTracing, serverTracer, startTracing, tracingConfigured, TRACER_NAME } from './tracing'
export type { TracingEnv } from './tracing'
export { telemetryBypassed } from './bench-baseline'
