/**
 * The app's end of the MCP Apps bridge: JSON-RPC 2.0 over `postMessage` with the host that
 * framed it (`window.parent`). Only messages whose source is that window are read; anything
 * else on the page's message channel is ignored. Written out rather than taken from
 * `@modelcontextprotocol/ext-apps`, whose `App` brings the MCP SDK and Zod into a bundle that
 * must stay small, and whose 2.0.4 `getHostCapabilities()` drops the `elicitation` member.
 */

type Params = Record<string, unknown>

/** A request the host sent, answered with its handler's result or an error the host can read. */
export type RequestHandler = (params: Params) => unknown | Promise<unknown>
export type NotificationHandler = (params: Params) => void

export interface HostBridge {
  /** Send a request and resolve with its result (reject with the host's error). */
  request(method: string, params: Params): Promise<Params>
  notify(method: string, params?: Params): void
  /** Handle the host's requests of `method`; one handler per method. */
  onRequest(method: string, handler: RequestHandler): void
  onNotification(method: string, handler: NotificationHandler): void
  /**
   * A bridge connected `held` keeps the host's requests and notifications, in order, until this
   * is called (the app's handlers registered), then handles them and each one after as it comes.
   * Answers to the app's own requests are never held.
   */
  release(): void
}

/** A JSON-RPC error the app answers a host's request with (e.g. a question it cannot show). */
export class BridgeError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

interface Message {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown }
}

export interface BridgeEnds {
  /** The host's window; default `window.parent`. */
  host?: Window
  /** The app's window, listened on; default `window`. */
  self?: Window
}

/** Connects to the host, listening on the app's window; `held`: the host's messages wait for `release()`. */
export function connectHostBridge({ host = window.parent, self = window, held = false }: BridgeEnds & { held?: boolean } = {}): HostBridge {
  let nextId = 1
  const pending = new Map<number, { resolve(result: Params): void; reject(error: Error): void }>()
  const requestHandlers = new Map<string, RequestHandler>()
  const notificationHandlers = new Map<string, NotificationHandler>()
  // A sandboxed app's own origin is opaque and it is not told its host's, so it cannot name one
  // (ext-apps' transport does the same); what it sends is the question's answer, meant for the host.
  const post = (message: Record<string, unknown>) => host.postMessage({ jsonrpc: '2.0', ...message }, '*')

  // `ping` is answered by every MCP peer.
  requestHandlers.set('ping', () => ({}))

  /** The host's requests and notifications received while held, in order. */
  const heldMessages: Array<Message & { method: string }> = []

  /** A request or notification of the host's, to its handler. */
  const handle = (message: Message & { method: string }) => {
    const params = (typeof message.params === 'object' && message.params !== null ? message.params : {}) as Params
    if (message.id === undefined || message.id === null) {
      notificationHandlers.get(message.method)?.(params)
      return
    }
    const id = message.id
    const handler = requestHandlers.get(message.method)
    if (!handler) {
      post({ id, error: { code: -32601, message: `Method not found: ${message.method}` } })
      return
    }
    Promise.resolve()
      .then(() => handler(params))
      .then(
        (result) => post({ id, result }),
        (error: unknown) =>
          post({
            id,
            error: {
              code: error instanceof BridgeError ? error.code : -32603,
              message: error instanceof Error ? error.message : String(error),
            },
          }),
      )
  }

  self.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== host) return
    const message = event.data as Message
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return
    if (typeof message.method === 'string') {
      const call = message as Message & { method: string }
      if (held) heldMessages.push(call)
      else handle(call)
      return
    }
    if (typeof message.id !== 'number') return
    const waiting = pending.get(message.id)
    if (!waiting) return
    pending.delete(message.id)
    if (message.error) waiting.reject(new BridgeError(Number(message.error.code), String(message.error.message)))
    else waiting.resolve((message.result ?? {}) as Params)
  })

  return {
    request(method, params) {
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        post({ id, method, params })
      })
    },
    notify(method, params = {}) {
      post({ method, params })
    },
    onRequest(method, handler) {
      requestHandlers.set(method, handler)
    },
    onNotification(method, handler) {
      notificationHandlers.set(method, handler)
    },
    release() {
      held = false
      for (const message of heldMessages.splice(0)) handle(message)
    },
  }
}
