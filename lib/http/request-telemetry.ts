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
  /** The signed-in account's id, hashed (`noteIdentity`): the line's `identity` instead of the browser cookie's. */
  identity?: string
  /** When a chat turn held to follow its questions ended (`noteTurnFollowed`): its duration ends there. */
  turnEndedAt?: number
}

/*
 * How the notes reach the hook without a per-request async context (an AsyncLocalStorage run per
 * request cost about 0.3–0.5 ms of CPU a booking on Node 20, docs/benchmarks.md):
 *
 * - a refusal's Response carries its code, scope and message to the hook in a header of its own
 *   (`REFUSAL_HEADER`), which the hook reads and removes before the response's head is written:
 *   the client never sees it;
 * - a streamed turn's error and `LOG_CONTENT`'s notes, which come after the head, reach the
 *   request's note through the Request the route is handed: the hook sets `NOTE_HEADER` on the
 *   incoming request to the key of its note among the requests in flight (`notesInFlight`),
 *   replacing whatever the client sent under that name, so that no client can name another
 *   request's note.
 */
const REFUSAL_HEADER = 'x-elicit-refusal'
const NOTE_HEADER = 'x-elicit-request-note'
const REFUSAL = Symbol.for('elicit-chat.refusal-note')

const globalForNotes = globalThis as typeof globalThis & { requestNotesInFlight?: Map<string, RequestNote> }
/** Shared by every bundle (instrumentation installs the hook, the routes note their turns' errors): each request's note by its key, from its start to its close. */
const notesInFlight = (globalForNotes.requestNotesInFlight ??= new Map<string, RequestNote>())

const installed = () => (http.Server.prototype as http.Server & { [INSTALLED]?: boolean })[INSTALLED] === true

/**
 * Called where a refusal becomes the response (`Refusal.toResponse`): counted in
 * `elicit_refusals_total`, and the headers its Response carries so that its code (and a 429's
 * scope, and its message for `LOG_CONTENT=1`) go on the request's one log line. None when the
 * hook is not installed (a test calling a route directly, the bench's baseline): it only counts.
 */
export function noteRefusal(code: string, scope?: string, message?: string): Record<string, string> {
  serverMetrics().refusals.note(code, scope)
  if (!installed()) return {}
  return { [REFUSAL_HEADER]: encodeURIComponent(JSON.stringify({ code, scope, message })) }
}

/**
 * Called when a streamed turn ended with an `error` event (`model_timeout`, `store_unavailable`,
 * …), after its 200: the code goes on the line of `request` (the route's), and is counted in
 * `elicit_turn_errors_total`.
 */
export function noteTurnError(request: Request, code: string): void {
  serverMetrics().turnErrors.inc({ code })
  const note = noteOf(request)
  if (note) note.code = code
}

/**
 * Called when a chat turn has ended and its response goes on following the questions it asked
 * (`follow`): the request's duration (its line's `durationMs`, `http.server.request.duration`)
 * is the turn's, and the time it was then held is its line's `followedMs`, so that a turn's
 * duration does not include the person's time to answer.
 */
export function noteTurnFollowed(request: Request): void {
  const note = noteOf(request)
  if (note) note.turnEndedAt = performance.now()
}

/**
 * Called where a request's identity is found to be a signed-in account (lib/auth, which reads
 * the session for the route anyway): the line's `identity` is the account's id hashed as the
 * cookie is, so the same person on two devices has one value; never the id itself. Nothing
 * outside a request the hook saw.
 */
export function noteIdentity(request: Request, id: string): void {
  const note = noteOf(request)
  if (note) note.identity = hashOf(id)
}

/** The note of the request in flight that `request` is (the route's view of it), if the hook made one. */
function noteOf(request: Request): RequestNote | undefined {
  const key = request.headers.get(NOTE_HEADER)
  return key === null ? undefined : notesInFlight.get(key)
}

/**
 * One log line per request and its `http.server.request.duration`, for every request of every
 * route, before Next sees it: `http.Server`'s `emit` is wrapped, as `peer-address.ts` does, and
 * the line is written when the response closes (its end, or the client gone), with the method,
 * the route (`/api/chats/[id]`, never the id), the status, the duration, and the identity
 * hashed (sha256, 16 hex digits): the signed-in account's id (`noteIdentity`), else the browser
 * identity's cookie (the same browser, the same value; never the cookie).
 * Installed first, so that it wraps Next's handling only: the time a request waits in the
 * admission gate (`admission-gate.ts`) under overload is not in its duration.
 */
/**
 * With `LOG_CONTENT=1`, what a streamed turn of `request` tells that the log may say
 * (`content-log.ts` reads its events): the `error` event's message goes on the request's line,
 * and each answer the tool rejected gets a line of its own (`answer rejected`, with the
 * request's trace ids). Undefined without `LOG_CONTENT`, or outside a request the hook saw: then
 * nothing reads the stream.
 */
export function contentNotes(request: Request): ((event: { type: string; message?: string; elicitId?: string }) => void) | undefined {
  const logger = serverLogger()
  if (!logger.content) return undefined
  const note = noteOf(request)
  if (!note) return undefined
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
  takeRefusalsAtHead()
  const tracer = serverTracer()
  let requests = 0
  const { httpRequestDuration } = serverMetrics()
  const emit = prototype.emit
  prototype.emit = function (this: http.Server & { [UNOBSERVED]?: boolean }, event: string | symbol, ...args: unknown[]) {
    const pass = () => (emit as (event: string | symbol, ...args: unknown[]) => boolean).apply(this, [event, ...args])
    if (event !== 'request' || this[UNOBSERVED]) return pass()
    const request = args[0] as http.IncomingMessage
    const response = args[1] as http.ServerResponse
    const started = performance.now()
    const note: RequestNote = {}
    const key = String(++requests)
    // The route reaches its note by this key (`noteOf`); a client's own value of the header is replaced.
    request.headers[NOTE_HEADER] = key
    notesInFlight.set(key, note)
    const method = methodOf(request.method)
    const route = routeOf(request.url ?? '/')
    // With traces on, the request's server span, continuing the caller's trace (`traceparent`).
    const parent = tracer && propagation.extract(ROOT_CONTEXT, request.headers)
    const span = tracer && startServerSpan(tracer, parent!, request, method, route)
    note.span = span
    response.once('close', () => {
      notesInFlight.delete(key)
      const refused = (response as MarkedResponse)[REFUSAL]
      if (refused) Object.assign(note, refused)
      const closed = performance.now()
      const seconds = ((note.turnEndedAt ?? closed) - started) / 1000
      const status = response.statusCode
      // Let go after its turn ended (the page answered, or moved on): not cut short.
      const aborted = !response.writableFinished && note.turnEndedAt === undefined
      if (span) endServerSpan(span, status, note.code, aborted)
      httpRequestDuration.observe({ http_request_method: method, http_route: route, http_response_status_code: status }, seconds)
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
      const logger = serverLogger()
      if (!logger.enabled(level)) return
      logger[level]('request', {
        method,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        // A turn held after it ended, following its questions: how long.
        followedMs: note.turnEndedAt === undefined ? undefined : Math.round((closed - note.turnEndedAt) * 10) / 10,
        // Closed before the response was done: the client went away (a Stop, a dropped connection).
        aborted: aborted || undefined,
        identity: note.identity ?? identityHash(request.headers.cookie),
        code: note.code,
        scope: note.scope,
        // A refusal's or a turn error's message may quote what was sent (a model's error does): only when asked for.
        message: logger.content ? note.message : undefined,
        ...traceIdsOf(span),
      })
    })
    if (!span) return pass()
    return context.with(trace.setSpan(parent!, span), pass)
  } as typeof prototype.emit
}

type MarkedResponse = http.ServerResponse & { [REFUSAL]?: Pick<RequestNote, 'code' | 'scope' | 'message'> }

/**
 * Every response's head, as it is written (`writeHead`, which Node also calls for a head written
 * implicitly by the first write or the end): a refusal's `REFUSAL_HEADER` is taken off it and
 * kept on the response for its log line. Set with `setHeader` (Next copies a Response's headers
 * so) or passed to `writeHead` as an object (a plain `node:http` handler).
 */
function takeRefusalsAtHead(): void {
  const prototype = http.ServerResponse.prototype
  const writeHead = prototype.writeHead as (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse
  prototype.writeHead = function (this: MarkedResponse, ...args: unknown[]) {
    const set = this.getHeader(REFUSAL_HEADER)
    if (set !== undefined) {
      this.removeHeader(REFUSAL_HEADER)
      this[REFUSAL] = refusalFrom(set)
    }
    const at = typeof args[1] === 'string' ? 2 : 1
    const headers = args[at]
    if (headers && typeof headers === 'object' && !Array.isArray(headers) && REFUSAL_HEADER in headers) {
      const { [REFUSAL_HEADER]: passed, ...rest } = headers as Record<string, unknown>
      this[REFUSAL] = refusalFrom(passed)
      args[at] = rest
    }
    return writeHead.apply(this, args)
  } as typeof prototype.writeHead
}

/** A refusal's note from its header (`noteRefusal`); nothing from what is not one. */
function refusalFrom(value: unknown): Pick<RequestNote, 'code' | 'scope' | 'message'> | undefined {
  try {
    const parsed = JSON.parse(decodeURIComponent(String(value))) as Record<string, unknown>
    const text = (field: unknown) => (typeof field === 'string' ? field : undefined)
    return typeof parsed.code === 'string' ? { code: parsed.code, scope: text(parsed.scope), message: text(parsed.message) } : undefined
  } catch {
    return undefined
  }
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
  return value ? hashOf(value) : undefined
}

/** sha256 of `value`, 16 hex digits, made once per value (`identityHashes`). */
function hashOf(value: string): string {
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
