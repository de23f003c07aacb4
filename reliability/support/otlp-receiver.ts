import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeSpans, OTLP_CONTENT_TYPES, otlpEncoding, type ReceivedSpan } from './otlp-spans'

export interface OtlpReceiver {
  /** The base URL to set as `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter posts to `/v1/traces`). */
  url: string
  spans(): ReceivedSpan[]
  /** Resolves with the spans received once `found` holds of them (checked on each export that arrives). */
  waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined): Promise<T>
  close(): Promise<void>
}

/**
 * An OTLP/HTTP receiver of the test's own, on a free port of 127.0.0.1, answering as a collector
 * does: what the server's OpenTelemetry exporter sends, in either encoding it offers, protobuf (its
 * default, `application/x-protobuf`) or JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), decoded
 * with OpenTelemetry's own generated protobuf code (`./otlp-spans`). Any other content type is
 * answered 415. `delayMs` holds each answer back (a slow collector).
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
    const encoding = otlpEncoding(request.headers['content-type'])
    if (!encoding) {
      response.writeHead(415).end()
      return
    }
    received.push(...decodeSpans(encoding, await bodyOf(request)))
    for (const wake of waiters) wake()
    // An empty ExportTraceServiceResponse (full success), in the request's encoding.
    const answer = () => response.writeHead(200, { 'content-type': OTLP_CONTENT_TYPES[encoding] }).end(encoding === 'json' ? '{}' : '')
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

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
