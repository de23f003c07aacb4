import type { ChildProcess } from 'node:child_process'
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type AuthProvider,
  type FetchLike,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { createQueue, ensure, race, scoped, sleep, spawn, suspend, until, withResolvers, type Operation } from 'effection'
import { CHAT_CLIENT_CAPABILITIES } from './app-elicitations'
import type { McpServerConfig } from './mcp-servers-config'
import type { McpServerConnection } from './server-connection'
import { trackChildProcess } from './child-processes'
import { traceTransport } from './traced-transport'
import { relatedCallOf, relatedCallsFetch } from './related-calls'
import { challengeOf, type AuthChallenge } from './personal/auth-challenge'

export interface McpServerTiming {
  /**
   * A server that has not answered `initialize` after this long is failed (and retried);
   * until then it is `starting`. An entry's own `initializeTimeoutMs` replaces it.
   */
  initializeTimeoutMs: number
  /** The first wait before a restart; each failure in a row doubles it, up to `maxBackoffMs`. */
  backoffMs: number
  maxBackoffMs: number
}

export const DEFAULT_MCP_SERVER_TIMING: McpServerTiming = { initializeTimeoutMs: 30_000, backoffMs: 1_000, maxBackoffMs: 60_000 }

const CLIENT_INFO = { name: 'elicit-chat', version: '0.1.0' }
const STDERR_TAIL = 2_000
const SESSION_END_WAIT_MS = 1_000

/**
 * Keep one server connected for as long as the scope lives: connect, list its tools, wait for
 * the connection to end, report why, wait (doubling after each failure in a row), start again.
 * Halting it closes the connection, and with it the server's process.
 */
export function* runMcpServer({
  config,
  connection,
  timing = DEFAULT_MCP_SERVER_TIMING,
  authProvider,
}: {
  config: McpServerConfig
  connection: McpServerConnection
  timing?: McpServerTiming
  /** A person's token for this server (a person's own connection, see `personal-connections.ts`). */
  authProvider?: AuthProvider
}): Operation<never> {
  let failuresInARow = 0
  while (true) {
    connection.starting()
    const { reason, wasReady, challenge } = yield* connectOnce({ config, connection, timing, authProvider })
    if (challenge) {
      // The server wants a person's authorization: not a failure to retry, but a Connect for each person.
      connection.needsConnect(challenge)
      yield* suspend()
    }
    connection.failed(reason)
    failuresInARow = wasReady ? 1 : failuresInARow + 1
    yield* sleep(backoffDelay(timing, failuresInARow))
    connection.restarts++
  }
}

/** The wait before the next start: `backoffMs` after one failure, doubling with each in a row, at most `maxBackoffMs`. */
export function backoffDelay(timing: McpServerTiming, failuresInARow: number): number {
  return Math.min(timing.maxBackoffMs, timing.backoffMs * 2 ** (Math.max(1, failuresInARow) - 1))
}

type Attempt = { reason: string; wasReady: boolean; challenge?: AuthChallenge }

function* connectOnce({
  config,
  connection,
  timing,
  authProvider,
}: {
  config: McpServerConfig
  connection: McpServerConnection
  timing: McpServerTiming
  authProvider?: AuthProvider
}): Operation<Attempt> {
  // Each attempt in a scope of its own: its end closes the client and the process, whatever happened.
  return yield* scoped(function* (): Operation<Attempt> {
    let stderr = ''
    const exit = { text: '' }
    // The last 401's WWW-Authenticate, if the server answered one (an OAuth-protected server).
    const unauthorized: { response?: Response } = {}
    const transport = createTransport(
      config,
      (chunk) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL)
      },
      { authProvider, onUnauthorized: (response) => (unauthorized.response = response) },
    )
    watchExit(transport, exit)
    const client = new Client(CLIENT_INFO, { capabilities: CHAT_CLIENT_CAPABILITIES })
    const closed = withResolvers<void>('the connection to close')
    client.onclose = () => closed.resolve()
    // Over HTTP nothing closes when the server goes away: the SDK only reports errors. One
    // that says the server is unreachable or has forgotten the session ends this connection.
    const lost = withResolvers<string>('the server to be lost')
    if (config.transport !== 'stdio') {
      client.onerror = (error) => {
        const why = serverLost(error)
        if (why) lost.resolve(why)
      }
    }
    installRequestHandlers(client, connection)
    const toolsChanged = createQueue<void, never>()
    client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged.add())

    let untrack: (() => void) | undefined
    yield* ensure(function* () {
      untrack?.()
      // An HTTP server keeps a session until it is told it is over (DELETE); one that does not
      // answer at once is not waited for (closing the client aborts the request).
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        yield* race([until(transport.terminateSession().catch(() => undefined)), sleep(SESSION_END_WAIT_MS)])
      }
      yield* until(client.close().catch(() => undefined))
    })
    const describe = (what: string) => withTail(what, stderr)

    const initializeTimeoutMs = config.initializeTimeoutMs ?? timing.initializeTimeoutMs
    const connecting = client.connect(transport)
    // Awaited below; abandoned at the time-out, it is ended by closing the client (the `ensure` above), and its failure then says nothing new.
    connecting.catch(() => undefined)
    try {
      const connected = yield* race([
        until(connecting.then(() => true)),
        (function* () {
          yield* sleep(initializeTimeoutMs)
          return false
        })(),
      ])
      if (!connected) return { reason: describe(`it did not answer initialize within ${seconds(initializeTimeoutMs)}`), wasReady: false }
    } catch (error) {
      // Said as UnauthorizedError (with a person's token), an HTTP error, or over HTTP+SSE its event stream's error.
      const refused = unauthorized.response && (error instanceof UnauthorizedError || (error instanceof SdkHttpError && error.status === 401) || (error instanceof SseError && error.code === 401))
      if (refused && config.transport !== 'stdio') {
        const challenge = challengeOf(unauthorized.response!, config.url)
        if ('refused' in challenge) return { reason: challenge.refused, wasReady: false }
        return { reason: 'it needs each person to connect', wasReady: false, challenge }
      }
      return { reason: describe(`it could not be ${config.transport === 'stdio' ? 'started' : 'reached'}: ${messageOf(error)}${exit.text}`), wasReady: false }
    }
    const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined
    if (pid !== undefined) untrack = trackChildProcess(pid)

    let tools: readonly Tool[]
    try {
      tools = yield* listTools(client)
    } catch (error) {
      return { reason: describe(`it did not list its tools: ${messageOf(error)}`), wasReady: false }
    }
    connection.ready({ client, tools, pid, relatesRequests: transport instanceof StreamableHTTPClientTransport })

    yield* spawn(function* () {
      while (true) {
        yield* toolsChanged.next()
        try {
          connection.tools = yield* listTools(client)
        } catch {
          // The old list stays; a connection that is gone is reported by its close.
        }
      }
    })
    const why = yield* race([closed.operation, lost.operation])
    return { reason: describe(why ? `the connection was lost: ${why}` : `the connection ended${exit.text}`), wasReady: true }
  })
}

function* listTools(client: Client): Operation<readonly Tool[]> {
  if (!client.getServerCapabilities()?.tools) return []
  const { tools } = yield* until(client.listTools(undefined, { cacheMode: 'bypass' }))
  return tools
}

function createTransport(
  config: McpServerConfig,
  onStderr: (chunk: string) => void,
  { authProvider, onUnauthorized }: { authProvider?: AuthProvider; onUnauthorized: (response: Response) => void },
): Transport {
  if (config.transport !== 'stdio') {
    // A 401 is noted for its challenge (`WWW-Authenticate`): the server asks each person to connect.
    const noting401 = (base: FetchLike): FetchLike => async (input, init) => {
      const response = await base(input, init)
      if (response.status === 401) onUnauthorized(response)
      return response
    }
    const auth = authProvider ? { authProvider } : {}
    // Every message the server sends within a call is tagged with that call (see relatedCallsFetch).
    if (config.transport === 'http') return traceTransport(new StreamableHTTPClientTransport(config.url, { requestInit: { headers: config.headers }, fetch: noting401(relatedCallsFetch()), ...auth }), { network: 'tcp', server: config.url })
    // The 2024-11-05 HTTP+SSE transport (VS Code's `"type": "sse"`): the headers and the person's token go on its event stream's GET and on every POST.
    return traceTransport(new SSEClientTransport(config.url, { requestInit: { headers: config.headers }, fetch: noting401(fetch), ...auth }), { network: 'tcp', server: config.url })
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer | string) => onStderr(chunk.toString()))
  // Requests within a traced tool call get a client span and carry its traceparent (traced-transport.ts).
  return traceTransport(transport, { network: 'pipe' })
}

/** Server requests go to the call in flight they belong to (see `routeRequest`). */
function installRequestHandlers(client: Client, connection: McpServerConnection): void {
  const route = (params: unknown) => {
    try {
      return connection.routeRequest(relatedCallOf(params))
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, messageOf(error))
    }
  }
  client.setRequestHandler('elicitation/create', (request, ctx) => route(request.params).elicit(request.params, ctx.mcpReq.signal))
  client.setRequestHandler('sampling/createMessage', (request, ctx) => route(request.params).sample(request.params, ctx.mcpReq.signal))
  // A log line nobody can be told of is dropped rather than shown to the wrong chat.
  client.setNotificationHandler('notifications/message', (notification) => connection.routeLog(relatedCallOf(notification.params))?.log(notification.params))
}

/**
 * Note how the server's process ends. The SDK's transport keeps its child private and reports
 * only that the connection closed (and forgets the child then); the exit code is what a person
 * needs to see, so the child is looked at as soon as the transport has started it.
 */
function watchExit(transport: Transport, exit: { text: string }): void {
  if (!(transport instanceof StdioClientTransport)) return
  const start = transport.start.bind(transport)
  transport.start = async () => {
    await start()
    const child = (transport as unknown as { _process?: ChildProcess })._process
    child?.once('exit', (code, signal) => {
      exit.text = code !== null ? ` (the process exited with code ${code})` : signal ? ` (the process was killed by ${signal})` : ''
    })
  }
}

/**
 * Why an HTTP server is gone, if this transport error says it is: the request could not reach
 * it (a network error, as the error's cause), it no longer knows the session (404, as after a
 * restart), or the SDK gave up re-opening the server's event stream (it says so only in words).
 */
function serverLost(error: Error): string | undefined {
  if (error instanceof SdkHttpError && error.status === 404) return `it no longer knows this session (HTTP 404)`
  if (/^Maximum reconnection attempts/.test(error.message)) return `its event stream could not be re-opened (${error.message})`
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    if (typeof (cause as NodeJS.ErrnoException).code === 'string' && /^E[A-Z]+$/.test((cause as NodeJS.ErrnoException).code!)) return messageOf(error)
  }
  return undefined
}

function withTail(what: string, stderr: string): string {
  const tail = stderr.trim()
  return tail ? `${what}; its stderr ended with: ${tail.slice(-500)}` : what
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}

/**
 * The error's message and those of its causes: `fetch` fails with just "fetch failed", and
 * only its cause says why (`connect ECONNREFUSED 127.0.0.1:3001`, `getaddrinfo ENOTFOUND …`).
 */
function messageOf(error: unknown): string {
  const messages: string[] = []
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 4; depth++) {
    const message = cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code : String(cause)
    if (message && !messages.includes(message)) messages.push(message)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return messages.join(': ') || String(error)
}
