import { randomUUID } from 'node:crypto'
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isInitializeRequest,
  isLegacyRequest,
  McpServer,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type InitializeRequest,
  type LoggingLevel,
} from '@modelcontextprotocol/server'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { all, createScope, sleep, spawn, suspend, type Operation } from 'effection'
import type { Admission } from '../../http/admission'
import { clientAddressOf } from '../../http/client-address'
import { createModelSampler } from '../../runtime/sample-with-model'
import { createMemorySessionStore, isSessionStoreUnavailable, type SessionStore } from '../../sessions'
import type { AnyMcpTool } from '../../tools/types'
import { checkToolForms } from './tool-forms'
import { registerPluginTool } from './register-plugin-tool'
import { RoundLedger } from '../../sessions/round-ledger'
import { createRoundStateCodec } from './round-state'
import { createMcpWorkInProgress, roundBinding } from './mcp-work-in-progress'
import { originRefusal } from './origin-check'
import { createQuestionApps, NO_QUESTION_APPS, QUESTION_APPS_EXTENSION, registerQuestionApps, type QuestionApps } from './question-apps'
import { CallRelay } from './call-relay'
import { HeldSessions, type HeldSessionRefusal, type SessionHolder } from '../../sessions/held-sessions'
import type { McpSessionData } from './mcp-session-data'
import { LocalSessions, RETRY_MS } from './restore-session'
import { jsonRpcError, readBody, uncompressed } from './endpoint-http'
import { authenticate, scopeRefusal } from './bearer-auth'
import type { ResourceAuth } from './resource-auth'
import { warnFailure } from '../../http/failure-log'

export interface McpEndpointOptions {
  tools: readonly AnyMcpTool[]
  /** The app's own model: it answers `ctx.sample` for clients that do not sample. */
  model: LanguageModelV3
  /** Signs and seals `requestState`; at least 32 bytes, the same on every instance. */
  stateSecret: string
  /** How long a round's state stays valid (default 30 minutes). */
  stateTtlSeconds?: number
  /** When set, every request needs `Authorization: Bearer <authToken>` (or, with `resourceAuth`, an access token). */
  authToken?: string
  /**
   * `/api/mcp` as an OAuth protected resource: access tokens of one authorization server for it,
   * their subject the caller, their scopes what it may call (resource-auth.ts, bearer-auth.ts).
   */
  resourceAuth?: ResourceAuth
  /**
   * When there is no `authToken` but the endpoint must not be open (the chat is behind sign-in):
   * every request is refused with 401 and this message, which says what the operator sets.
   */
  closedWithoutToken?: string
  /** Host names this server answers to (Host and Origin); localhost-class names always. */
  allowedHosts?: readonly string[]
  /**
   * Where 2025 sessions, their calls in progress and answered rounds are kept (default: in memory,
   * this process only). Instances on one store serve each other's sessions and calls: with Redis,
   * any instance takes any request; with the embedded store, a restart loses nothing.
   */
  useStore?: () => Operation<SessionStore>
  /** More to serve on each server instance (the conformance fixtures). */
  extend?: (server: McpServer) => void
  /** At most this many 2025 sessions at once, on all instances of the store (default 1000); more are refused with 503. */
  maxSessions?: number
  /**
   * At most this many 2025 sessions per client address (an IPv6 address by its /64) and, with
   * `authToken`, per token (default 100); more are refused with 429, so one client cannot take
   * every session from the others.
   */
  maxSessionsPerClient?: number
  /** A 2025 session unused this long expires (default 30 minutes). */
  sessionIdleMs?: number
  /**
   * How long a round's runner is presumed alive after it last renewed its lease (default 10 s,
   * `DEFAULT_LEASE_MS` of lib/sessions/lease.ts): a round cut by a crash is run again by another instance after it.
   */
  roundLeaseMs?: number
  /**
   * The server's admission (the chat's): each request is charged to the server's budget as new
   * work, or as a continuation of a call in progress, which is never refused for others' load
   * (mcp-work-in-progress.ts). Without it, nothing is limited here.
   */
  admission?: Pick<Admission, 'admit'>
  /**
   * The questions' MCP Apps (`readQuestionApps`, from what `scripts/build-mcp-apps.mjs` built):
   * served as `ui://<tool>/<key>` resources, and attached to their questions for clients that
   * negotiated app-rendered elicitations (SEP-3118), which the server then advertises. Default: none.
   */
  questionApps?: QuestionApps
}

/** `/api/mcp`: one fetch-shaped handler for every MCP request, and its teardown. */
export interface McpEndpoint {
  handle(request: Request): Promise<Response>
  /** The 2025 sessions open on every instance of the store (`elicit_mcp_sessions_open`): what the cap counts. */
  openSessions(): Promise<number>
  close(): Promise<void>
}

export const MCP_SERVER_INFO = { name: 'elicit-chat', version: '0.1.0' }

/**
 * The app's tools over MCP (Streamable HTTP). A request is checked (Host, Origin and its port,
 * bearer token, one message rather than a batch, admission), then routed by era with the SDK's
 * own classifier: 2025 traffic to its session, the rest to the SDK's stateless 2026-07-28
 * handler, strict (`legacy: 'reject'`), since its stateless fallback for 2025 clients cannot send
 * them elicitation or sampling requests.
 *
 * A 2025 session is data in the store, held by the session layer (`HeldSessions`: capped per
 * client and in all, across instances), served on any instance by the SDK's transport restored
 * from it (restore-session.ts); a call of a plugin tool in it is data too (call-relay.ts over the
 * session layer's `CallRecords`), its stream a log in the store (call-log.ts). With a shared store (Redis) any instance serves any request,
 * and a restart loses no session and no call.
 */
export async function createMcpEndpoint(options: McpEndpointOptions): Promise<McpEndpoint> {
  const { tools, stateSecret, extend, maxSessions = 1000, maxSessionsPerClient = 100, sessionIdleMs = 30 * 60_000 } = options
  /** A client over its own cap: its sessions unused this long make room for its new one. */
  const ownIdleMs = Math.min(sessionIdleMs, 60_000)
  // Refused at start, naming the tool and key, not in front of a user later.
  for (const tool of tools) checkToolForms(tool)
  const ttlSeconds = options.stateTtlSeconds ?? 30 * 60
  const allowedHosts = ['localhost', '127.0.0.1', '[::1]', ...(options.allowedHosts ?? [])]
  // Only apps of questions this server asks.
  const questionApps = createQuestionApps(
    (options.questionApps ?? NO_QUESTION_APPS).apps.filter((app) => tools.some((tool) => tool.name === app.tool && app.key in tool.elicits)),
  )

  const [scope, destroy] = createScope()
  const store = await new Promise<SessionStore>((resolve, reject) => {
    scope
      .run(function* () {
        const store = options.useStore ? yield* options.useStore() : createMemorySessionStore()
        yield* spawn(() => forgetOldRecords(store))
        resolve(store)
        yield* suspend()
      })
      .catch(reject)
  })
  const serving = {
    scope,
    ledger: new RoundLedger(store, ttlSeconds * 1000, warnFailure, options.roundLeaseMs),
    sample: createModelSampler(options.model),
    codec: createRoundStateCodec({
      secret: stateSecret,
      ttlSeconds,
      // The caller is who the bearer token says; without a token every caller is the same one.
      bind: (ctx) => roundBinding(ctx.mcpReq.method, ctx.http?.authInfo?.clientId ?? ''),
    }),
    // A question's app, attached (`_meta.ui.resourceUri`) only when the client negotiated app-rendered elicitations.
    appFor: (toolName: string, key: string) => questionApps.uriFor(toolName, key),
  }

  const createServer = () => {
    const server = new McpServer(MCP_SERVER_INFO, {
      capabilities: { tools: {}, logging: {}, ...(questionApps.apps.length > 0 ? { extensions: QUESTION_APPS_EXTENSION } : {}) },
      requestState: { verify: (state, ctx) => serving.codec.verify(state, ctx) },
      // A game of tic-tac-toe, or a user who keeps answering wrongly, takes many rounds.
      inputRequired: { maxRounds: 100 },
    })
    for (const tool of tools) registerPluginTool(server, tool, serving)
    registerQuestionApps(server, questionApps)
    extend?.(server)
    return server
  }

  const modern = createMcpHandler(() => createServer(), { legacy: 'reject' })
  const run = <T>(operation: () => Operation<T>): Promise<T> => scope.run(operation)
  // 2025 sessions: records in the store (any instance serves any session), the SDK's objects here a cache of them.
  const records = new HeldSessions<McpSessionData>(store, { perHolder: maxSessionsPerClient, total: maxSessions, idleMs: sessionIdleMs, ownIdleMs })
  const local = new LocalSessions(createServer, maxSessions)
  // 2025 calls of plugin tools: data in the store, their streams forwarded from a log in it.
  const relay = new CallRelay({ scope, store, serving, tools, secret: stateSecret, keepMs: ttlSeconds * 1000, retryMs: RETRY_MS })
  const work = createMcpWorkInProgress({
    codec: serving.codec,
    heldHere: (id) => local.get(id) !== undefined,
    answersCall: (id, sessionId) => relay.isGenuineAnswer(id, sessionId),
  })

  async function legacy(request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    const handling = { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId) return inSession(sessionId, request, handling, parsedBody)
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required')
    if (!isInitializeRequest(parsedBody)) {
      // No session, and none to open: the SDK answers it as it does (400, "Server not initialized").
      const throwaway = await local.create(randomUUID())
      const response = await throwaway.transport.handleRequest(request, handling)
      await throwaway.server.close()
      return response
    }
    return openSession(request, handling, parsedBody, authInfo)
  }

  /** An `initialize`: a place under the caps, then the SDK's handshake, then the session's record. */
  async function openSession(
    request: Request,
    handling: { authInfo?: AuthInfo; parsedBody?: unknown },
    initialize: InitializeRequest,
    authInfo: AuthInfo | undefined,
  ): Promise<Response> {
    const id = randomUUID()
    const holders = holdersOf(request, authInfo)
    const refusal = await run(() => records.reserve({ id, holders, now: Date.now() }))
    if (refusal) return sessionsRefused(refusal)
    let opened = false
    try {
      const session = await local.create(id)
      const response = await session.transport.handleRequest(request, handling)
      if (session.transport.sessionId === undefined) {
        await session.server.close()
        return response
      }
      const data: McpSessionData = {
        initialize: initialize.params,
        protocolVersion: session.server.server.getNegotiatedProtocolVersion() ?? initialize.params.protocolVersion,
        owner: authInfo?.clientId ?? '',
        holders,
      }
      // Written before the answer is handed on: the client's next request, on any instance, finds it.
      await run(() => records.open({ id, data, now: Date.now() }))
      opened = true
      return response
    } finally {
      // Anything but a successful initialize opens no session: its places are given back.
      if (!opened) await run(() => records.release({ id, holders }))
    }
  }

  /**
   * A request in a session: the session loaded from its record (404 when it ended, expired, or
   * never was), then served — a plugin tool's call, an answer to one of its questions, and the
   * resumption of its stream by the relay; anything else by the SDK's transport for the session
   * here, restored from the record if this process does not hold it.
   */
  async function inSession(sessionId: string, request: Request, handling: { authInfo?: AuthInfo; parsedBody?: unknown }, parsedBody: unknown): Promise<Response> {
    const now = Date.now()
    // An answer's call is read beside the session, the two awaited together: one round trip to the store for both.
    const answer = request.method === 'POST' && relay.answers(parsedBody) ? parsedBody : undefined
    const [session, callRead] = answer ? await run(() => all([records.load(sessionId, now), relay.readCall(answer, sessionId)])) : ([await run(() => records.load(sessionId, now)), undefined] as const)
    if (!session) {
      await local.drop(sessionId)
      return jsonRpcError(404, -32001, 'Session not found: it ended, or expired. Initialize a new session.')
    }
    // A session belongs to the token that opened it.
    if (session.data.owner !== (handling.authInfo?.clientId ?? '')) return jsonRpcError(404, -32001, 'Session not found: it ended, or expired. Initialize a new session.')
    await run(() => records.touch(session, now))
    // As the SDK's transport answers it, for what the relay serves too.
    const version = request.headers.get('mcp-protocol-version')
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return jsonRpcError(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)
    }
    if (request.method === 'DELETE') {
      await run(() => records.end(sessionId))
      await local.drop(sessionId)
      return new Response(null, { status: 200 })
    }
    if (request.method === 'POST') {
      if (relay.relays(parsedBody)) return relay.start(session, parsedBody)
      if (answer) return relay.answer(session, answer, callRead)
      if (relay.cancels(parsedBody)) {
        const cancelled = await relay.cancel(session, parsedBody.params.requestId)
        if (cancelled) return cancelled
      }
      const level = loggingLevelOf(parsedBody)
      if (level) await run(() => records.update(sessionId, (data) => ({ ...data, loggingLevel: level })))
    }
    const lastEventId = request.method === 'GET' ? request.headers.get('last-event-id') : null
    if (lastEventId) {
      const resumed = await relay.resume(session, lastEventId)
      if (resumed) return resumed
    }
    const held = await local.restore(sessionId, session.data)
    return held.transport.handleRequest(request, handling)
  }

  /** Who a new session from `request` is counted against: its address, and the bearer token's principal when there is one. */
  function holdersOf(request: Request, authInfo: AuthInfo | undefined): SessionHolder[] {
    const holders: SessionHolder[] = [{ kind: 'address', id: clientAddressOf(request) }]
    if (authInfo?.clientId) holders.push({ kind: 'token', id: authInfo.clientId })
    return holders
  }

  /** 429 over a client's cap, 503 over the server's, each with when a place may come free. */
  function sessionsRefused(refused: HeldSessionRefusal): Response {
    const retryAfter = { 'Retry-After': String(Math.max(1, Math.ceil(refused.retryAfterMs / 1000))) }
    if (refused.full === 'server') return jsonRpcError(503, -32000, 'Too many MCP sessions are open; close one or try again later.', retryAfter)
    const who = refused.holder.kind === 'address' ? 'This address' : 'This token'
    return jsonRpcError(
      429,
      -32000,
      `${who} has ${refused.held} MCP sessions open, the most one client may have; close one (DELETE) or wait.`,
      retryAfter,
    )
  }

  // Set when `close` starts: a request that still arrives is sent elsewhere (503), not half served.
  let closing: Promise<void> | undefined
  async function closeEndpoint(): Promise<void> {
    // Rounds running here finish first: a call's next round is never left half run by a graceful close.
    await relay.settle()
    // Then every stream ends (the SDK's sessions' and the relayed calls'): their clients resume elsewhere.
    await local.closeAll()
    await modern.close()
    await destroy()
  }

  return {
    async handle(request) {
      if (closing) return jsonRpcError(503, -32000, 'This server is shutting down; send the request again.', { 'Retry-After': '1' })
      const refused = hostHeaderValidationResponse(request, allowedHosts) ?? originRefusal(request, allowedHosts)
      if (refused) return refused
      const authenticated = await authenticate(request, options)
      if (authenticated instanceof Response) return authenticated
      const authInfo = authenticated
      if (!['GET', 'POST', 'DELETE'].includes(request.method)) return jsonRpcError(405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' })
      // The body is read once, here, and handed to the SDK parsed.
      const read = await readBody(request)
      if (read.tooLarge) return jsonRpcError(413, -32000, `Payload Too Large: a request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes.`)
      const parsedBody = read.parsedBody
      request = read.request
      if (Array.isArray(parsedBody)) {
        return jsonRpcError(400, -32600, 'Batches are not supported (removed in MCP 2025-06-18); send one message per request.')
      }
      const forbidden = scopeRefusal(parsedBody, authInfo, options.resourceAuth)
      if (forbidden) return forbidden
      if (options.admission) {
        const decision = options.admission.admit(
          clientAddressOf(request),
          work.workOf({
            method: request.method,
            sessionId: request.headers.get('mcp-session-id'),
            lastEventId: request.headers.get('last-event-id'),
            body: parsedBody,
            caller: authInfo?.clientId ?? '',
          }),
        )
        if (!decision.allowed) {
          return jsonRpcError(429, -32000, 'The server is taking too many requests right now. Wait a moment, then try again.', {
            'Retry-After': String(Math.max(1, Math.ceil(decision.retryAfterSeconds))),
          })
        }
      }
      const legacyEra = parsedBody === undefined ? await isLegacyRequest(request) : await isLegacyRequest(request, parsedBody)
      let response: Response
      try {
        response = legacyEra
          ? await legacy(request, authInfo, parsedBody)
          : await modern.fetch(request, { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) })
      } catch (error) {
        // 2025 sessions and calls live in the store: while it cannot be reached, say so (the client may retry), never a 500.
        if (!isSessionStoreUnavailable(error)) throw error
        return jsonRpcError(503, -32000, 'The server cannot reach its session store right now. Try again in a moment.', { 'Retry-After': '1' })
      }
      return uncompressed(response)
    },
    openSessions: () => run(() => records.countOpen(Date.now())),
    close() {
      closing ??= closeEndpoint()
      return closing
    },
  }
}

/** A store that expires nothing by itself, and has nothing due, is looked at again after this long. */
const SWEEP_IDLE_MS = 10 * 60_000
/** Sweeps are at least this far apart, however soon the next record falls due. */
const SWEEP_EVERY_MS = 1000

/**
 * The store's records past their `keepUntil` (sessions, calls and their logs, answered rounds)
 * forgotten when they fall due: Redis does it by itself (its sweep does nothing), the memory and
 * embedded stores only when swept.
 */
function* forgetOldRecords(store: SessionStore): Operation<void> {
  for (;;) {
    let next: number | undefined
    try {
      next = yield* store.sweep(Date.now())
    } catch (error) {
      // Swept again at its next turn.
      warnFailure('mcp_store_sweep_failed', 'the MCP endpoint’s store could not be swept', error)
    }
    yield* sleep(next === undefined ? SWEEP_IDLE_MS : Math.max(next - Date.now(), SWEEP_EVERY_MS))
  }
}

const LOGGING_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])

/** The level a `logging/setLevel` request sets, if `message` is one with a valid level. */
function loggingLevelOf(message: unknown): LoggingLevel | undefined {
  const request = message as { method?: unknown; params?: { level?: unknown } } | null
  if (typeof request !== 'object' || request === null || request.method !== 'logging/setLevel') return undefined
  const level = request.params?.level
  return typeof level === 'string' && LOGGING_LEVELS.has(level) ? (level as LoggingLevel) : undefined
}
