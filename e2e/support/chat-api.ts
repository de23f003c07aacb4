import type { APIRequestContext } from '@playwright/test'
import type { ChatEvent, Message, PluginElicitRequestEvent, PluginElicitResponse } from '../../lib/protocol'
import { readNdjson } from '../../lib/client/read-ndjson'

export const CLIENT_COOKIE = 'chat_client_id'

/** One answer of `POST /api/chat`: the NDJSON events of a 200, or the JSON body of a refusal. */
export interface ChatTurn {
  status: number
  events: ChatEvent[]
  /** The parsed body when it was not an NDJSON stream (a 4xx `{ error: { code, message } }`). */
  json?: unknown
  /** The last `plugin_elicit_request` of the turn: the question that now waits, if any. */
  elicit?: PluginElicitRequestEvent
  /** A refusal's `Retry-After` (a 429's), in seconds, as the server sent it. */
  retryAfter?: number
}

export interface ChatApiOptions {
  /** The server to talk to, e.g. `app.url`; change it (or pass `baseURL` per call) to move to another instance. */
  baseURL: string
  /** A Playwright `request` fixture or `request.newContext()`; without it, Node's fetch. */
  request?: APIRequestContext
  /** Sent with every request, e.g. `X-Forwarded-For` to play a client behind a trusted proxy. */
  headers?: Record<string, string>
}

export interface SendOptions {
  /** Send this one request to another instance; the cookie and the conversation go along. */
  baseURL?: string
}

export type ElicitAction = { action: 'accept'; content: unknown } | { action: 'decline' } | { action: 'cancel' }

/**
 * A client of the HTTP contract (docs/http-contract.md), as a browser uses it:
 * it keeps the `chat_client_id` cookie and the conversation from the last `conversation_state`,
 * and sends them with every request — to whichever instance it is pointed at.
 *
 * Its own cookie jar is the only one: with a Playwright request context, the context's jar is
 * bypassed, so two clients on one context are two browsers.
 *
 * @example
 * const chat = createChatApi({ baseURL: app.url, request })
 * const { elicit } = await chat.startBooking('Book a flight from NYC to LAX')
 * const flights = contextOf(elicit!).flights as Array<{ id: string }>
 * const next = await chat.answer({ event: elicit!, content: { flightId: flights[0]!.id } })
 */
export function createChatApi({ baseURL, request, headers: extraHeaders = {} }: ChatApiOptions) {
  let target = baseURL
  let cookie: string | undefined
  let messages: Message[] = []

  async function post(body: unknown, { baseURL: to = target }: SendOptions = {}): Promise<ChatTurn> {
    const url = new URL('/api/chat', to).toString()
    const payload = typeof body === 'string' ? body : JSON.stringify(body)
    // An explicit cookie header (even empty) keeps Playwright's own jar out of it.
    const headers = { ...extraHeaders, 'content-type': 'application/json', accept: 'application/x-ndjson', cookie: cookie ?? '' }
    let status: number
    let contentType: string
    let setCookies: string[]
    let retryAfter: string | undefined
    let bytes: Uint8Array<ArrayBuffer>
    if (request) {
      const response = await request.post(url, { headers, data: payload, failOnStatusCode: false })
      status = response.status()
      contentType = response.headers()['content-type'] ?? ''
      setCookies = response.headersArray().filter(({ name }) => name.toLowerCase() === 'set-cookie').map(({ value }) => value)
      retryAfter = response.headers()['retry-after']
      bytes = new Uint8Array(await response.body())
    } else {
      const response = await fetch(url, { method: 'POST', headers, body: payload })
      status = response.status
      contentType = response.headers.get('content-type') ?? ''
      setCookies = response.headers.getSetCookie()
      retryAfter = response.headers.get('retry-after') ?? undefined
      bytes = new Uint8Array(await response.arrayBuffer())
    }
    for (const line of setCookies) {
      const pair = line.split(';')[0]!.trim()
      if (pair.startsWith(`${CLIENT_COOKIE}=`)) cookie = pair
    }
    if (!contentType.includes('application/x-ndjson')) {
      const text = new TextDecoder().decode(bytes)
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status, events: [], json, ...(retryAfter !== undefined ? { retryAfter: Number(retryAfter) } : {}) }
    }
    const events: ChatEvent[] = []
    for await (const event of readNdjson(new Response(bytes).body!)) events.push(event)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    return { status, events, elicit: elicitRequests(events).at(-1) }
  }

  function say(text: string, options?: SendOptions): Promise<ChatTurn> {
    return post({ messages: [...messages, { role: 'user', content: text }] }, options)
  }

  return {
    post,
    say,
    /** Ask for a booking; the turn's `elicit` is then the `pickFlight` question. */
    startBooking: (text = 'Book a flight from NYC to LAX', options?: SendOptions) => say(text, options),
    /**
     * Answer a waiting question: `content` accepts it (the default action when content is
     * given), or pass `action: 'decline' | 'cancel'`. The conversation is the last one the
     * server sent back.
     */
    answer: (
      { event, content, action = 'accept' }: { event: PluginElicitRequestEvent; content?: unknown; action?: ElicitAction['action'] },
      options?: SendOptions,
    ) => post({ messages, pluginElicitResponses: [responseTo(event, action === 'accept' ? { action, content } : { action })] }, options),
    abort: (sessionId: string, reason?: string, options?: SendOptions) => post({ messages, pluginAbort: { sessionId, reason } }, options),
    get baseURL() {
      return target
    },
    set baseURL(next: string) {
      target = next
    },
    /** `chat_client_id=<id>.<signature>`, as the server last set it. */
    get cookie() {
      return cookie
    },
    set cookie(next: string | undefined) {
      cookie = next
    },
    /** The conversation from the last `conversation_state`. */
    get messages() {
      return messages
    },
    set messages(next: Message[]) {
      messages = next
    },
  }
}

export type ChatApi = ReturnType<typeof createChatApi>

/** The `pluginElicitResponses` entry that answers `event`. */
export function responseTo(event: PluginElicitRequestEvent, result: ElicitAction): PluginElicitResponse {
  return { sessionId: event.sessionId, callId: event.callId, elicitId: event.elicitId, result }
}

export function elicitRequests(events: ChatEvent[]): PluginElicitRequestEvent[] {
  return events.filter((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
}

export function eventsOf<T extends ChatEvent['type']>(events: ChatEvent[], type: T): Array<Extract<ChatEvent, { type: T }>> {
  return events.filter((event): event is Extract<ChatEvent, { type: T }> => event.type === type)
}

/** The data a tool passed along with its question (e.g. `flights` for `pickFlight`). */
export function contextOf(event: PluginElicitRequestEvent): Record<string, unknown> {
  return event.context
}
