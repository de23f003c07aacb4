import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import http from 'node:http'
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api'
import { methodOf, routeOf, serverLogger, serverMetrics, serverTracer } from '../telemetry'
import { CLIENT_COOKIE } from './client-identity'

const INSTALLED = Symbol.for('elicit-chat.request-telemetry')
/** A server marked with this is not observed (the metrics server: its scrapes are not the app's requests). */
export const UNOBSERVED = Symbol.for('elicit-chat.unobserved-server')

/** What a request's handling tells its log line: the code it was refused with, and a 429's scope. */
interface RequestNote {
  code?: string
  scope?: string
  /** The refusal's or the turn error's message: on the line only with `LOG_CONTENT=1`. */
  message?: string
  /** The request's span, when traces are on: its ids go on every line of the request. */
  span?: Span
}

const globalForNotes = globalThis as typeof globalThis & { requestNotes?: AsyncLocalStorage<RequestNote> }
/** Shared by every bundle (instrumentation installs the hook, the routes' refusals note their code). */
const notes = (globalForNotes.requestNotes ??= new AsyncLocalStorage<RequestNote>())

/**
 * Called where a refusal becomes the response (`Refusal.toResponse`): its code goes on the
 * request's one log line and is counted in `elicit_refusals_total`. Outside a request (a test
 * calling a route directly) it only counts.
 */
export function noteRefusal(code: string, scope?: string, message?: string): void {
  serverMetrics().refusals.note(code, scope)
  const note = notes.getStore()
  if (note) {
    note.code = code
    note.scope = scope
    note.message = message
  }
}

/**
 * Called when a streamed turn ended with an `error` event (`model_timeout`, `store_unavailable`,
 * …), after its 200: the code goes on the request's log line, and is counted in
 * `elicit_turn_errors_total`.
 */
export function noteTurnError(code: string): void {
  serverMetrics().turnErrors.inc({ code })
  const note = notes.getStore()
  if (note) note.code = code
}

/**
 * One log line per request and its `http.server.request.duration`, for every request of every
 * route, before Next sees it: `http.Server`'s `emit` is wrapped, as `peer-address.ts` does, and
 * the line is written when the response closes (its end, or the client gone), with the method,
 * the route (`/api/chats/[id]`, never the id), the status, the duration, and the identity's
 * cookie hashed (sha256, 16 hex digits: the same browser, the same value; never the cookie).
 * Installed first, so that it wraps Next's handling only: the time a request waits in the
 * admission gate (`admission-gate.ts`) under overload is not in its duration.
 */
/**
 * With `LOG_CONTENT=1`, what a streamed turn tells that the log may say (`content-log.ts` reads
 * its events): the `error` event's message goes on the request's line, and each answer the
 * tool rejected gets a line of its own (`answer rejected`, with the request's trace ids).
 * Undefined without `LOG_CONTENT`, or outside a request: then nothing reads the stream.
 */
export function contentNotes(): ((event: { type: string; message?: string; elicitId?: string }) => void) | undefined {
  const note = notes.getStore()
  const logger = serverLogger()
  if (!note || !logger.content) return undefined
  return (event) => {
    if (event.type === 'error') note.message = event.message
    else if (event.type === 'plugin_elicit_rejected') logger.info('answer rejected', { elicitId: event.elicitId, message: event.message, ...traceIdsOf(note.span) })
  }
}

/** The trace and span ids of a request's span, for its log lines (none when traces are off). */
function traceIdsOf(span: Span | undefined): { traceId?: string; spanId?: string } {
  if (!span) return {}
  const { traceId, spanId } = span.spanContext()
  return { traceId, spanId }
}

export function installRequestTelemetry(): void {
  const prototype = http.Server.prototype as http.Server & { [INSTALLED]?: boolean }
  if (prototype[INSTALLED]) return
  prototype[INSTALLED] = true
  const tracer = serverTracer()
  const { httpRequestDuration } = serverMetrics()
  const emit = prototype.emit
  prototype.emit = function (this: http.Server & { [UNOBSERVED]?: boolean }, event: string | symbol, ...args: unknown[]) {
    const pass = () => (emit as (event: string | symbol, ...args: unknown[]) => boolean).apply(this, [event, ...args])
    if (event !== 'request' || this[UNOBSERVED]) return pass()
    const request = args[0] as http.IncomingMessage
    const response = args[1] as http.ServerResponse
    const started = performance.now()
    const note: RequestNote = {}
    const method = methodOf(request.method)
    const route = routeOf(request.url ?? '/')
    // With traces on, the request's server span, continuing the caller's trace (`traceparent`).
    const parent = tracer && propagation.extract(ROOT_CONTEXT, request.headers)
    const span = tracer && startServerSpan(tracer, parent!, request, method, route)
    note.span = span
    response.once('close', () => {
      const seconds = (performance.now() - started) / 1000
      const status = response.statusCode
      if (span) endServerSpan(span, status, note.code, !response.writableFinished)
      httpRequestDuration.observe({ http_request_method: method, http_route: route, http_response_status_code: status }, seconds)
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
      const logger = serverLogger()
      if (!logger.enabled(level)) return
      logger[level]('request', {
        method,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        // Closed before the response was done: the client went away (a Stop, a dropped connection).
        aborted: response.writableFinished ? undefined : true,
        identity: identityHash(request.headers.cookie),
        code: note.code,
        scope: note.scope,
        // A refusal's or a turn error's message may quote what was sent (a model's error does): only when asked for.
        message: logger.content ? note.message : undefined,
        ...traceIdsOf(span),
      })
    })
    if (!span) return notes.run(note, pass)
    return context.with(trace.setSpan(parent!, span), () => notes.run(note, pass))
  } as typeof prototype.emit
}

/** The server span of a request, by the HTTP semantic conventions; a child of the incoming `traceparent`, if any. */
function startServerSpan(tracer: Tracer, parent: Context, request: http.IncomingMessage, method: string, route: string): Span {
  const path = (request.url ?? '/').split('?', 1)[0]!
  return tracer.startSpan(
    `${method === '_OTHER' ? 'HTTP' : method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'http.route': route, 'url.path': path, 'url.scheme': 'http', 'network.protocol.version': request.httpVersion },
    },
    parent,
  )
}

function endServerSpan(span: Span, status: number, code: string | undefined, aborted: boolean): void {
  span.setAttribute('http.response.status_code', status)
  if (code) span.setAttribute('elicit.refusal.code', code)
  if (status >= 500) {
    span.setStatus({ code: SpanStatusCode.ERROR })
    span.setAttribute('error.type', String(status))
  }
  if (aborted) span.setAttribute('elicit.request.aborted', true)
  span.end()
}

/** The identity cookie's value (`chat_client_id`, or its `__Host-` form), hashed; undefined without one. */
function identityHash(cookies: string | undefined): string | undefined {
  if (!cookies) return undefined
  const at = cookies.indexOf(`${CLIENT_COOKIE}=`)
  if (at < 0) return undefined
  const start = at + CLIENT_COOKIE.length + 1
  const end = cookies.indexOf(';', start)
  const value = cookies.slice(start, end < 0 ? undefined : end).trim()
  if (!value) return undefined
  let hash = identityHashes.get(value)
  if (hash === undefined) {
    // Bounded: a flood of new cookies empties it, it never grows past this.
    if (identityHashes.size >= IDENTITY_HASHES_KEPT) identityHashes.clear()
    hash = createHash('sha256').update(value).digest('hex').slice(0, 16)
    identityHashes.set(value, hash)
  }
  return hash
}

/**
 * The identities' hashes already made: a browser sends the same cookie with each request, and a
 * sha256 per request was a measurable part of what the log line cost (docs/benchmarks.md).
 */
const identityHashes = new Map<string, string>()
const IDENTITY_HASHES_KEPT = 10_000
