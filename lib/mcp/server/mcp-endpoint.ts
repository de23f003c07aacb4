import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { createScope, suspend, type Operation } from 'effection'
import type { Admission } from '../../engine/admission'
import { clientAddressOf } from '../../engine/client-address'
import { createModelSampler } from '../../engine/sample-with-model'
import { createMemorySessionStore, type SessionStore } from '../../sessions'
import type { AnyMcpTool } from '../../tools/types'
import { flatFormSchemas } from './flat-form-schema'
import { registerPluginTool } from './register-plugin-tool'
import { RoundLedger } from './round-ledger'
import { createRoundStateCodec } from './round-state'
import { createMcpWorkInProgress, roundBinding } from './mcp-work-in-progress'
import { originRefusal } from './origin-check'
import { SessionEventStore } from './session-event-store'

export interface McpEndpointOptions {
  tools: readonly AnyMcpTool[]
  /** The app's own model: it answers `ctx.sample` for clients that do not sample. */
  model: LanguageModelV3
  /** Signs and seals `requestState`; at least 32 bytes, the same on every instance. */
  stateSecret: string
  /** How long a round's state stays valid (default 30 minutes). */
  stateTtlSeconds?: number
  /** When set, every request needs `Authorization: Bearer <authToken>`. */
  authToken?: string
  /** Host names this server answers to (Host and Origin); localhost-class names always. */
  allowedHosts?: readonly string[]
  /** Where answered rounds are kept (default: in memory); instances that share rounds share a store. */
  useStore?: () => Operation<SessionStore>
  /** More to serve on each server instance (the conformance fixtures). */
  extend?: (server: McpServer) => void
  /** At most this many 2025 sessions at once (default 1000); more are refused with 503. */
  maxSessions?: number
  /** A 2025 session unused this long is closed when room is needed for a new one (default 30 minutes). */
  sessionIdleMs?: number
  /**
   * The server's admission (the chat's): each request is charged to the server's budget as new
   * work, or as a continuation of a call in progress, which is never refused for others' load
   * (mcp-work-in-progress.ts). Without it, nothing is limited here.
   */
  admission?: Pick<Admission, 'admit'>
}

/** `/api/mcp`: one fetch-shaped handler for every MCP request, and its teardown. */
export interface McpEndpoint {
  handle(request: Request): Promise<Response>
  close(): Promise<void>
}

export const MCP_SERVER_INFO = { name: 'elicit-chat', version: '0.1.0' }

/**
 * The app's tools over MCP (Streamable HTTP). A request is checked (Host, Origin, bearer
 * token), then routed by era with the SDK's own classifier: 2025 traffic to a sessionful
 * transport per `Mcp-Session-Id` (sessions live in this process), the rest to the SDK's
 * stateless 2026-07-28 handler, strict (`legacy: 'reject'`), since its stateless fallback for
 * 2025 clients cannot send them elicitation or sampling requests.
 */
export async function createMcpEndpoint(options: McpEndpointOptions): Promise<McpEndpoint> {
  const { tools, stateSecret, authToken, extend, maxSessions = 1000, sessionIdleMs = 30 * 60_000 } = options
  // Refused at start, naming the tool and key, not in front of a user later.
  for (const tool of tools) flatFormSchemas(tool)
  const ttlSeconds = options.stateTtlSeconds ?? 30 * 60
  const allowedHosts = ['localhost', '127.0.0.1', '[::1]', ...(options.allowedHosts ?? [])]

  const [scope, destroy] = createScope()
  const store = await new Promise<SessionStore>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(options.useStore ? yield* options.useStore() : createMemorySessionStore())
        yield* suspend()
      })
      .catch(reject)
  })
  const serving = {
    scope,
    ledger: new RoundLedger(store, ttlSeconds * 1000),
    sample: createModelSampler(options.model),
    codec: createRoundStateCodec({
      secret: stateSecret,
      ttlSeconds,
      // The caller is who the bearer token says; without a token every caller is the same one.
      bind: (ctx) => roundBinding(ctx.mcpReq.method, ctx.http?.authInfo?.clientId ?? ''),
    }),
  }

  const createServer = () => {
    const server = new McpServer(MCP_SERVER_INFO, {
      capabilities: { tools: {}, logging: {} },
      requestState: { verify: (state, ctx) => serving.codec.verify(state, ctx) },
      // A game of tic-tac-toe, or a user who keeps answering wrongly, takes many rounds.
      inputRequired: { maxRounds: 100 },
    })
    for (const tool of tools) registerPluginTool(server, tool, serving)
    extend?.(server)
    return server
  }

  const modern = createMcpHandler(() => createServer(), { legacy: 'reject' })
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer; usedAt: number; asked: Set<string | number> }>()
  const work = createMcpWorkInProgress({ codec: serving.codec, askedIn: (id) => sessions.get(id)?.asked })

  async function legacy(request: Request, authInfo: AuthInfo | undefined, parsedBody: unknown): Promise<Response> {
    const handling = { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) }
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId) {
      const session = sessions.get(sessionId)
      if (!session) return jsonRpcError(404, -32001, 'Session not found: it ended, or this server restarted. Initialize a new session.')
      session.usedAt = Date.now()
      return session.transport.handleRequest(request, handling)
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required')
    // Clients that vanish without DELETE leave sessions behind: the idle ones make room (no timer per session).
    if (sessions.size >= maxSessions) await closeIdleSessions(Date.now() - sessionIdleMs)
    if (sessions.size >= maxSessions) return jsonRpcError(503, -32000, 'Too many MCP sessions are open; close one or try again later.')
    const server = createServer()
    // The requests this session's server sends its client (elicitations, sampling): an answer to one continues a call.
    const asked = new Set<string | number>()
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: a client told to reconnect (or whose connection broke) misses nothing.
      eventStore: new SessionEventStore(),
      retryInterval: 1000,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, usedAt: Date.now(), asked }),
      onsessionclosed: (id) => void sessions.delete(id),
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    if (options.admission) {
      // Each id leaves the set when its answer is admitted (mcp-work-in-progress.ts), or with the session.
      const send = transport.send.bind(transport)
      transport.send = (message, sendOptions) => {
        if ('method' in message && 'id' in message) asked.add(message.id)
        return send(message, sendOptions)
      }
    }
    await server.connect(transport)
    const response = await transport.handleRequest(request, handling)
    // Anything but an initialize leaves no session behind.
    if (!transport.sessionId) await server.close()
    return response
  }

  async function closeIdleSessions(before: number): Promise<void> {
    const idle = [...sessions].filter(([, session]) => session.usedAt < before)
    for (const [id] of idle) sessions.delete(id)
    await Promise.all(idle.map(([, { server }]) => server.close().catch(() => {})))
  }

  return {
    async handle(request) {
      const refused = hostHeaderValidationResponse(request, allowedHosts) ?? originRefusal(request, allowedHosts)
      if (refused) return refused
      let authInfo: AuthInfo | undefined
      if (authToken !== undefined) {
        const given = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
        if (!given || !sameSecret(given, authToken)) {
          return jsonRpcError(401, -32000, 'Unauthorized: send Authorization: Bearer <MCP_AUTH_TOKEN>.', { 'WWW-Authenticate': 'Bearer' })
        }
        authInfo = { token: given, clientId: createHash('sha256').update(given).digest('base64url').slice(0, 16), scopes: [] }
      }
      if (!['GET', 'POST', 'DELETE'].includes(request.method)) return jsonRpcError(405, -32000, 'Method not allowed.', { Allow: 'GET, POST, DELETE' })
      // The body is read once, here, and handed to the SDK parsed.
      const read = await readBody(request)
      if (read.tooLarge) return jsonRpcError(413, -32000, `Payload Too Large: a request body must not exceed ${MAX_BODY_BYTES} bytes.`)
      const parsedBody = read.parsedBody
      request = read.request
      if (Array.isArray(parsedBody)) {
        return jsonRpcError(400, -32600, 'Batches are not supported (removed in MCP 2025-06-18); send one message per request.')
      }
      if (options.admission) {
        const decision = options.admission.admit(
          clientAddressOf(request),
          work.workOf({ method: request.method, sessionId: request.headers.get('mcp-session-id'), body: parsedBody, caller: authInfo?.clientId ?? '' }),
        )
        if (!decision.allowed) {
          return jsonRpcError(429, -32000, 'The server is taking too many requests right now. Wait a moment, then try again.', {
            'Retry-After': String(Math.max(1, Math.ceil(decision.retryAfterSeconds))),
          })
        }
      }
      const legacyEra = parsedBody === undefined ? await isLegacyRequest(request) : await isLegacyRequest(request, parsedBody)
      const response = legacyEra
        ? await legacy(request, authInfo, parsedBody)
        : await modern.fetch(request, { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) })
      return uncompressed(response)
    },
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})))
      sessions.clear()
      await modern.close()
      await destroy()
    },
  }
}

/** The SDK's own bound on a POST body it reads (4 MiB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024

/**
 * A JSON POST's body read once, bounded, and parsed, for the endpoint (batches, admission) to
 * look at and the SDK to use as `parsedBody`. Anything else (no body, another content type, JSON that does not parse)
 * is handed on unparsed, as a request with the same bytes, for the SDK to answer as it does.
 */
async function readBody(request: Request): Promise<{ tooLarge: true } | { tooLarge: false; request: Request; parsedBody: unknown }> {
  if (request.method !== 'POST' || !/\bjson\b/i.test(request.headers.get('content-type') ?? '') || request.body === null) {
    return { tooLarge: false, request, parsedBody: undefined }
  }
  if (Number(request.headers.get('content-length')) > MAX_BODY_BYTES) return { tooLarge: true }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > MAX_BODY_BYTES) return { tooLarge: true }
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return { tooLarge: false, request, parsedBody: JSON.parse(text) as unknown }
  } catch {
    return { tooLarge: false, request: new Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal }), parsedBody: undefined }
  }
}

/**
 * `response` marked `Cache-Control: no-transform`, which Next's gzip (and proxies) leave alone.
 * An MCP answer is a few KB, most of it a sealed `requestState` that does not compress, and
 * starting a gzip stream for each cost more CPU than the round's own work saved in bytes; an
 * SSE stream must not sit in a compressor's buffer either.
 */
function uncompressed(response: Response): Response {
  const cacheControl = response.headers.get('cache-control')
  if (cacheControl?.includes('no-transform')) return response
  const headers = new Headers(response.headers)
  headers.set('cache-control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers })
}
