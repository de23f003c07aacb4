import type { Client, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, LoggingMessageNotificationParams, Tool } from '@modelcontextprotocol/client'

/** How a server is doing, as `GET /api/tools` and the chat show it. */
export type McpServerStatus = 'starting' | 'ready' | 'failed'

/**
 * One external tool call in flight, as its server's requests reach it: the server's questions
 * for the user, its requests for the chat's model, and its log lines.
 */
export interface ExternalCallChannel {
  elicit(params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult>
  sample(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>
  log(params: LoggingMessageNotificationParams): void
}

/**
 * One configured server's connection as the rest of the app sees it: its status, its tools
 * while it is up, and the calls in flight on it. Written only by the server's own lifecycle
 * (`runMcpServer`); read by everyone else.
 */
export class McpServerConnection {
  status: McpServerStatus = 'starting'
  /** Why it failed last: the error, the exit, the stderr tail; kept while it restarts. */
  error: string | undefined = undefined
  /** The child process, for stdio servers that are up. */
  pid: number | undefined = undefined
  client: Client | undefined = undefined
  tools: readonly Tool[] = []
  /** Restarts so far (0 while the first connection is being made). */
  restarts = 0
  /** The calls in flight: a server request or log line belongs to one of them. */
  readonly calls = new Set<ExternalCallChannel>()

  constructor(readonly name: string) {}

  starting(): void {
    this.status = 'starting'
    this.client = undefined
    this.pid = undefined
    this.tools = []
  }

  ready({ client, tools, pid }: { client: Client; tools: readonly Tool[]; pid?: number }): void {
    this.status = 'ready'
    this.error = undefined
    this.client = client
    this.tools = tools
    this.pid = pid
  }

  failed(error: string): void {
    this.status = 'failed'
    this.error = error
    this.client = undefined
    this.pid = undefined
    this.tools = []
  }

  /**
   * The call a server request belongs to. MCP over stdio does not say which call a request
   * comes from, so it goes to the one call in flight on this server; with several in flight
   * it could reach the wrong person's chat, so it is refused instead.
   */
  routeRequest(): ExternalCallChannel {
    if (this.calls.size === 1) return this.calls.values().next().value!
    throw new Error(
      this.calls.size === 0
        ? `The chat has no call to ${this.name} in flight that this request could belong to.`
        : `The chat has ${this.calls.size} calls to ${this.name} in flight and cannot tell which one this request belongs to.`,
    )
  }
}
