import { trace, type Tracer } from '@opentelemetry/api'

/**
 * The server's traces: OpenTelemetry spans exported over OTLP/HTTP (`http/protobuf`, or
 * `http/json` by `OTEL_EXPORTER_OTLP_PROTOCOL`) when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, and nothing at all when neither is: the SDK is not even loaded, no span is made, and the layers that trace are
 * handed no tracer. The exporter, the sampler (`OTEL_TRACES_SAMPLER`, default: every trace, or
 * as the incoming `traceparent` says), the resource (`OTEL_SERVICE_NAME`, default `elicit-chat`,
 * and `OTEL_RESOURCE_ATTRIBUTES`) and the batching (`OTEL_BSP_*`) read the SDK's own variables.
 *
 * Spans are batched and sent in the background: a collector that is down or slow costs the
 * dropped spans (the batch queue is bounded), never a request.
 */
export type TracingEnv = Partial<Record<string, string>> & {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string
  OTEL_EXPORTER_OTLP_PROTOCOL?: string
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string
  OTEL_SDK_DISABLED?: string
  OTEL_SERVICE_NAME?: string
  OTEL_SEMCONV_STABILITY_OPT_IN?: string
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?: string
}

/** Whether traces are to be exported: an OTLP endpoint is set, and the SDK is not disabled. */
export function tracingConfigured(env: TracingEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim())
}

/**
 * Whether spans may carry contents: messages, answers, a question's context values
 * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). Off by default.
 */
export function captureContent(env: TracingEnv = process.env): boolean {
  return env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true'
}

/**
 * The OTLP encoding (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`):
 * `http/protobuf` (the default) or `http/json`; gRPC is not offered, and any other value is a
 * setting to change, said at the start.
 */
export function tracesProtocol(env: TracingEnv = process.env): 'http/protobuf' | 'http/json' {
  const value = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf'
  if (value === 'http/protobuf' || value === 'http/json') return value
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not offered), not ${JSON.stringify(value)}.`)
}

/** The instrumentation scope of every span of ours. */
export const TRACER_NAME = 'elicit-chat'

interface Tracing {
  tracer: Tracer
  /** Sends what is still batched, then stops exporting. */
  shutdown(): Promise<void>
}

const globalForTracing = globalThis as typeof globalThis & { serverTracing?: Tracing | null }

/**
 * Starts the SDK once per process when `tracingConfigured`, and registers it as OpenTelemetry's
 * global provider (with the W3C `traceparent` propagator and the AsyncLocalStorage context), so
 * that Next's own spans join ours. Kept on globalThis: the routes run from another bundle than
 * instrumentation. Resolves to the tracer, or undefined when traces are off.
 */
export async function startTracing(env: TracingEnv = process.env): Promise<Tracer | undefined> {
  if (globalForTracing.serverTracing !== undefined) return globalForTracing.serverTracing?.tracer
  if (!tracingConfigured(env)) {
    globalForTracing.serverTracing = null
    return undefined
  }
  // Loaded only here: with no endpoint, a process never pays for the SDK.
  const protocol = tracesProtocol(env)
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
  ])
  const resource = defaultResource().merge(resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || TRACER_NAME }))
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] })
  provider.register()
  const tracing: Tracing = { tracer: trace.getTracer(TRACER_NAME), shutdown: () => provider.shutdown() }
  globalForTracing.serverTracing = tracing
  return tracing.tracer
}

/** The process's tracer once `startTracing` made one; undefined when traces are off (or not started). */
export function serverTracer(): Tracer | undefined {
  return globalForTracing.serverTracing?.tracer ?? undefined
}

/** Sends the spans still batched (a graceful stop); nothing when traces are off. */
export async function flushTracing(): Promise<void> {
  await globalForTracing.serverTracing?.shutdown()
}
