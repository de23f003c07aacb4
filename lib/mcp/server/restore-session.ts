import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server'
import type { McpSessionData } from './mcp-session-data'
import { SessionEventStore } from './session-event-store'

/** A 2025 session's SDK objects in this process: a cache of its record. */
export interface LocalSession {
  transport: WebStandardStreamableHTTPServerTransport
  server: McpServer
}

/** Resumable streams of the SDK's own (anything not relayed): the client is told to reconnect after this long. */
export const RETRY_MS = 1000

/**
 * The SDK's transport and server for 2025 sessions, per process: made when a session is
 * initialized here, or restored from its record when a request for it reaches this instance
 * first (another opened it, or this process restarted).
 *
 * Restoring replays what the SDK keeps of a session — `initialize` (the client's capabilities
 * and info, the negotiated version), `notifications/initialized`, and `logging/setLevel` if it
 * was set — through a fresh transport whose session id is the stored one, discarding the
 * answers: the SDK's state is then exactly as after the real handshake. The SDK keeps nothing
 * else per session that a later request needs (a call in progress is data too: call-relay.ts).
 *
 * Invariant: at most `limit` sessions are held; the least recently used is closed here (its
 * record, and so the session, lives on) to make room. Closing here never ends a session.
 */
export class LocalSessions {
  private readonly held = new Map<string, LocalSession>()
  private readonly restoring = new Map<string, Promise<LocalSession>>()

  constructor(
    private readonly createServer: () => McpServer,
    private readonly limit: number,
  ) {}

  /** The session's SDK objects here, most recently used now, if this process holds them. */
  get(id: string): LocalSession | undefined {
    const local = this.held.get(id)
    if (local) {
      this.held.delete(id)
      this.held.set(id, local)
    }
    return local
  }

  get size(): number {
    return this.held.size
  }

  /** A transport (and its server) for a session being opened by `initialize`, under the id `id`. */
  async create(id: string): Promise<LocalSession> {
    const server = this.createServer()
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // The SDK's own streams (not relayed calls) resume with `Last-Event-ID` on this instance.
      eventStore: new SessionEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: () => this.keep(id, { transport, server }),
    })
    transport.onclose = () => {
      if (this.held.get(id)?.transport === transport) this.held.delete(id)
    }
    await server.connect(transport)
    return { transport, server }
  }

  /** The session's SDK objects here, restored from `data` if this process does not hold them (once, for requests that arrive together). */
  async restore(id: string, data: McpSessionData): Promise<LocalSession> {
    const held = this.get(id)
    if (held) return held
    let restoring = this.restoring.get(id)
    if (!restoring) {
      restoring = this.replay(id, data).finally(() => this.restoring.delete(id))
      this.restoring.set(id, restoring)
    }
    return restoring
  }

  private async replay(id: string, data: McpSessionData): Promise<LocalSession> {
    const local = await this.create(id)
    const replay = async (message: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const request = new Request('http://localhost/api/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(message),
      })
      const response = await local.transport.handleRequest(request, { parsedBody: message })
      // The stream ends with the answer: read to its end, so nothing is left open.
      await response.text()
      if (!response.ok) throw new Error(`Restoring MCP session ${id} failed: ${message.method} was answered ${response.status}`)
    }
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': data.protocolVersion }
    try {
      await replay({ jsonrpc: '2.0', id: 'restore-initialize', method: 'initialize', params: data.initialize })
      await replay({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)
      if (data.loggingLevel) await replay({ jsonrpc: '2.0', id: 'restore-logging', method: 'logging/setLevel', params: { level: data.loggingLevel } }, session)
    } catch (error) {
      await this.drop(id)
      // Awaited; a failure to close what never became a session is not this request's: the restore's own error is.
      await local.server.close().catch(() => {})
      throw error
    }
    return local
  }

  /** Closes the session's SDK objects here (its streams end; the session lives on in its record). */
  async drop(id: string): Promise<void> {
    const local = this.held.get(id)
    if (!local) return
    this.held.delete(id)
    // Awaited; a close that fails leaves nothing to undo (the session lives on in its record), and the request goes on.
    await local.server.close().catch(() => {})
  }

  async closeAll(): Promise<void> {
    const all = [...this.held.values()]
    this.held.clear()
    // Awaited, every one: one close that fails must not stop the others (the sessions live on in their records).
    await Promise.all(all.map(({ server }) => server.close().catch(() => {})))
  }

  private async keep(id: string, local: LocalSession): Promise<void> {
    this.held.set(id, local)
    if (this.held.size > this.limit) {
      const [oldest] = this.held.keys()
      if (oldest !== undefined && oldest !== id) await this.drop(oldest)
    }
  }
}
