import { randomUUID } from 'node:crypto'
import type { Client, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, LoggingMessageNotificationParams, Tool } from '@modelcontextprotocol/client'
import { DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from './approval-policy'
import type { AuthChallenge } from './personal/auth-challenge'

/**
 * How a server is doing, as `GET /api/tools` and the chat show it. `needs_connect`: it answered
 * with an OAuth challenge (or its entry has `userVariables`), so each person connects on their own.
 */
export type McpServerStatus = 'starting' | 'ready' | 'failed' | 'needs_connect'

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
  /** The server's OAuth challenge, once it answered one (`needs_connect`). */
  challenge: AuthChallenge | undefined = undefined
  /** Restarts so far (0 while the first connection is being made). */
  restarts = 0
  /**
   * Whether the transport says which call each server request belongs to (Streamable HTTP,
   * through `relatedCallsFetch`); stdio and the old HTTP+SSE transport do not.
   */
  relatesRequests = false
  /** The calls in flight, by the id their server requests name (see `related-calls.ts`). */
  readonly calls = new Map<string, ExternalCallChannel>()
  /** Told whenever `status` changes (see `McpClients.changed`). */
  private readonly watchers = new Set<() => void>()

  constructor(
    readonly name: string,
    /** Which of its tools the person approves before each call (`mcp.json`'s `approve`). */
    readonly approve: ApprovalPolicy = DEFAULT_APPROVAL_POLICY,
  ) {}

  /** Hear of the next changes of `status`, until the returned function is called. */
  watch(listener: () => void): () => void {
    this.watchers.add(listener)
    return () => this.watchers.delete(listener)
  }

  private changed(): void {
    for (const watcher of [...this.watchers]) watcher()
  }

  starting(): void {
    this.status = 'starting'
    this.client = undefined
    this.pid = undefined
    this.tools = []
    this.relatesRequests = false
    this.changed()
  }

  ready({ client, tools, pid, relatesRequests }: { client: Client; tools: readonly Tool[]; pid?: number; relatesRequests: boolean }): void {
    this.status = 'ready'
    this.error = undefined
    this.client = client
    this.tools = tools
    this.pid = pid
    this.relatesRequests = relatesRequests
    this.changed()
  }

  /** It asks each person to connect: its tools come with each person's own connection. */
  needsConnect(challenge: AuthChallenge): void {
    this.status = 'needs_connect'
    this.error = undefined
    this.challenge = challenge
    this.client = undefined
    this.pid = undefined
    this.tools = []
    this.relatesRequests = false
    this.changed()
  }

  failed(error: string): void {
    this.status = 'failed'
    this.error = error
    this.client = undefined
    this.pid = undefined
    this.tools = []
    this.relatesRequests = false
    this.changed()
  }

  /** Put a call in flight: its id (for `_meta[RELATED_CALL]` on its `tools/call`), and how it leaves. */
  openCall(channel: ExternalCallChannel): { id: string; close(): void } {
    const id = randomUUID()
    this.calls.set(id, channel)
    return { id, close: () => this.calls.delete(id) }
  }

  /**
   * The call a server request belongs to. Over Streamable HTTP the request names it (`related`,
   * from the stream it came on), and only that call can get it: one person's waiting or
   * abandoned call never takes another's questions, and several calls can each ask their own.
   * A request sent outside any call has nobody to ask, and is refused. Stdio and HTTP+SSE do
   * not say which call a request comes from, so it goes to the one call in flight on this
   * server; with several in flight it could reach the wrong person's chat, so it is refused.
   */
  routeRequest(related: string | undefined): ExternalCallChannel {
    if (this.relatesRequests) {
      const call = related === undefined ? undefined : this.calls.get(related)
      if (call) return call
      throw new Error(
        related === undefined
          ? `${this.name} sent this request outside any of the chat's calls to it, so there is nobody to ask.`
          : `The chat's call to ${this.name} that this request belongs to has ended.`,
      )
    }
    if (this.calls.size === 1) return this.calls.values().next().value!
    throw new Error(
      this.calls.size === 0
        ? `The chat has no call to ${this.name} in flight that this request could belong to.`
        : `The chat has ${this.calls.size} calls to ${this.name} in flight and cannot tell which one this request belongs to.`,
    )
  }

  /** The call a log line belongs to, found as a request's is (`routeRequest`); undefined drops it rather than show it to the wrong chat. */
  routeLog(related: string | undefined): ExternalCallChannel | undefined {
    if (this.relatesRequests) return related === undefined ? undefined : this.calls.get(related)
    return this.calls.size === 1 ? this.calls.values().next().value! : undefined
  }
}
