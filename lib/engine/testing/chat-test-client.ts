import type { Admission } from '../../http/admission'
import type { ClientIdentityResolver } from '../../http/client-identity'
import type { ChatServer } from '../chat-server'
import type { ChatEvent, PluginElicitRequestEvent, ValidationIssue } from '../../protocol/events'
import { handleChatRequest, type FollowCalls } from '../../http/handle-chat-request'
import type { InFlightLimiter } from '../../http/in-flight-limiter'
import type { Message } from '../../protocol/messages'
import type { PluginElicitResponse } from '../../protocol/request-schema'

export interface TurnResponse {
  status: number
  events: ChatEvent[]
  error?: { code: string; message: string; issues?: ValidationIssue[] }
}

export type ElicitAnswer = PluginElicitResponse['result']

/**
 * A browser stand-in for tests: it keeps the cookie and the conversation like the chat UI
 * does, and speaks the HTTP contract through the real request handler (with `admission`, from
 * `address`, as a server would admit it; with `identity`, as that resolver says who is asking).
 */
export function createChatTestClient({
  chat,
  admission,
  address,
  identity,
  inFlight,
  follow,
}: {
  chat: ChatServer
  admission?: Admission
  address?: string
  identity?: ClientIdentityResolver
  /** As the route bounds one address's requests answered at once. */
  inFlight?: InFlightLimiter
  /** How a turn that asks (`follow`) goes on following its questions, as the route does it. */
  follow?: FollowCalls
}) {
  let cookie: string | undefined
  let messages: Message[] = []
  /** The chat kept on the server its turns belong to, as the chat UI sends it; undefined: none (an API client). */
  let chatId: string | undefined
  const withChat = (body: Record<string, unknown>) => (chatId === undefined ? body : { ...body, chatId })

  async function post(body: unknown, { signal }: { signal?: AbortSignal } = {}): Promise<TurnResponse> {
    const response = await send(body, { signal })
    if (!response.ok) return { status: response.status, events: [], error: (await response.json()).error }
    const text = await response.text()
    const events = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ChatEvent)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    return { status: response.status, events }
  }

  async function send(body: unknown, { signal }: { signal?: AbortSignal } = {}): Promise<Response> {
    const request = new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(address ? { 'x-forwarded-for': address } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal,
    })
    const response = await handleChatRequest({ request, chat, admission, inFlight, follow, ...(identity ? { identity } : {}) })
    const setCookie = response.headers.get('set-cookie')
    if (setCookie) cookie = setCookie.split(';')[0]
    return response
  }

  return {
    post,
    /** The raw Response, for reading a stream as it arrives. */
    send,
    say: (text: string) => post(withChat({ messages: [...messages, { role: 'user', content: text }] })),
    answer: (answers: Array<{ request: PluginElicitRequestEvent; result: ElicitAnswer }>) =>
      post(
        withChat({
          messages,
          pluginElicitResponses: answers.map(({ request, result }) => ({
            sessionId: request.sessionId,
            callId: request.callId,
            elicitId: request.elicitId,
            result,
          })),
        }),
      ),
    abort: (sessionId: string, reason?: string) => post(withChat({ messages, pluginAbort: { sessionId, reason } })),
    get messages() {
      return messages
    },
    set messages(next: Message[]) {
      messages = next
    },
    get chatId() {
      return chatId
    },
    set chatId(next: string | undefined) {
      chatId = next
    },
    /** The identity the server gave this browser (its cookie's id), once it has one. */
    get clientId() {
      return cookie?.split('=')[1]?.split('.')[0]
    },
    get cookie() {
      return cookie
    },
    set cookie(next: string | undefined) {
      cookie = next
    },
  }
}

export type ChatTestClient = ReturnType<typeof createChatTestClient>

export function elicitRequests(events: ChatEvent[]): PluginElicitRequestEvent[] {
  return events.filter((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
}

export function eventsOf<T extends ChatEvent['type']>(events: ChatEvent[], type: T): Array<Extract<ChatEvent, { type: T }>> {
  return events.filter((event): event is Extract<ChatEvent, { type: T }> => event.type === type)
}

export function textOf(events: ChatEvent[]): string {
  return eventsOf(events, 'text')
    .map((event) => event.content)
    .join('')
}
