import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { IAnyValue, IKeyValue } from '@opentelemetry/otlp-transformer/build/src/common/internal-types'
import type { IExportTraceServiceRequest } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types'

/** A span as the receiver got it, its attributes made plain values. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Record<string, unknown>
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, unknown> }>
  service: string
  /** The instrumentation scope that made it: `elicit-chat` for ours, `next.js` for Next's own. */
  scope: string
}

export interface OtlpReceiver {
  /** The base URL to set as `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter posts to `/v1/traces`). */
  url: string
  spans(): ReceivedSpan[]
  /** Resolves with the spans received once `found` holds of them (checked on each export that arrives). */
  waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined): Promise<T>
  close(): Promise<void>
}

/**
 * An OTLP/HTTP receiver of the test's own, on a free port of 127.0.0.1: what the server's
 * OpenTelemetry exporter sends in its JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), read
 * as the OpenTelemetry packages' own `IExportTraceServiceRequest` and answered as a collector does.
 * `delayMs` holds each answer back (a slow collector).
 */
export async function startOtlpReceiver({ delayMs = 0 }: { delayMs?: number } = {}): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = []
  const waiters = new Set<() => void>()
  const held = new Set<NodeJS.Timeout>()
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end()
      return
    }
    const body = JSON.parse(await text(request)) as IExportTraceServiceRequest
    received.push(...spansOf(body))
    for (const wake of waiters) wake()
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    if (delayMs <= 0) return answer()
    const timer = setTimeout(() => (held.delete(timer), answer()), delayMs)
    held.add(timer)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined): Promise<T> {
      return new Promise((resolve) => {
        const check = () => {
          const result = found(received)
          if (result === undefined) return
          waiters.delete(check)
          resolve(result)
        }
        waiters.add(check)
        check()
      })
    },
    async close() {
      for (const timer of held) clearTimeout(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function spansOf(body: IExportTraceServiceRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) => {
    const service = String(attributesOf(resource.resource?.attributes)['service.name'])
    return (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        ...(span.parentSpanId ? { parentSpanId: String(span.parentSpanId) } : {}),
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        links: (span.links ?? []).map((link) => ({ traceId: String(link.traceId), spanId: String(link.spanId), attributes: attributesOf(link.attributes) })),
        service,
        scope: scope.scope?.name ?? '',
      })),
    )
  })
}

function attributesOf(attributes: IKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]))
}

function valueOf(value: IAnyValue): unknown {
  if (value.stringValue != null) return value.stringValue
  if (value.boolValue != null) return value.boolValue
  if (value.intValue != null) return Number(value.intValue)
  if (value.doubleValue != null) return value.doubleValue
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf)
  return undefined
}
