import { newChatId, type ChatEvent, type Message, type PluginElicitRequestEvent } from '../lib/protocol'
import { BOOKING_MESSAGE, chooseFlight, chooseSeat } from './booking-answers'
import { processCpuMs } from './process-cpu'

export type RequestKind = 'start' | 'resume' | 'finish'

export interface Timed {
  kind: RequestKind
  ms: number
  /** The server's CPU from just before the request to its last byte (only with `serverPid`). */
  cpuMs?: number
}

/**
 * One browser's booking over HTTP: three requests, each timed to its last byte. With
 * `serverPid`, the server's CPU is read around each request too (work the server does after the
 * last byte, such as a write finishing, falls between requests and is not counted there).
 */
/**
 * With `chat`, every request names it (`chatId`), as the chat page does: the server stores the
 * booking in it. With `newChat`, the first request makes it, as the chat page's first message does.
 */
export interface BookingChat {
  id: string
  cookie?: string
  newChat?: boolean
  /**
   * As the chat page does while it shows a question: follow it on the server
   * (`GET /api/chats/:id/waiting?questions=<elicit id>`, held until the question is answered),
   * so that an answer or a Stop from another page reaches it.
   */
  follow?: boolean
}

export async function bookOverHttp({ baseUrl, serverPid, chat, timeoutMs = 30_000 }: { baseUrl: string; serverPid?: number; chat?: BookingChat; timeoutMs?: number }): Promise<Timed[]> {
  let cookie: string | undefined = chat?.cookie
  const chatId = chat?.id
  let newChat = chat?.newChat === true
  let messages: Message[] = []
  const timings: Timed[] = []
  /** The request following the question shown, read to its end. */
  let following: Promise<string> | undefined

  function follow(question: PluginElicitRequestEvent) {
    following = fetch(`${baseUrl}/api/chats/${encodeURIComponent(chatId!)}/waiting?questions=${encodeURIComponent(question.elicitId)}`, {
      headers: { accept: 'application/x-ndjson', ...(cookie ? { cookie } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    }).then(async (response) => {
      const text = await response.text()
      if (!response.ok) throw new Error(`follow: HTTP ${response.status} ${text}`)
      return text
    })
    // Awaited by `followed`, after the answer: a failure meanwhile waits for it there.
    following.catch(() => undefined)
  }

  /**
   * The follow ends once the question it names is answered: the server tells it (`call_answered`)
   * and closes it. (The page gives it up as it sends the answer instead; the server's work is the
   * same until then, and this way every follow is served whole, whatever the two requests' order.)
   */
  async function followed() {
    const ending = following
    following = undefined
    if (ending && !(await ending).includes('"call_answered"')) throw new Error('follow: ended without the answer')
  }

  async function post(kind: RequestKind, body: unknown): Promise<ChatEvent[]> {
    const cpuBefore = serverPid === undefined ? 0 : processCpuMs(serverPid)
    const started = performance.now()
    const response = await fetch(`${baseUrl}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(chatId === undefined ? body : { ...(body as object), chatId, ...(newChat ? { newChat } : {}) }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    newChat = false
    const text = await response.text()
    const ms = performance.now() - started
    timings.push(serverPid === undefined ? { kind, ms } : { kind, ms, cpuMs: processCpuMs(serverPid) - cpuBefore })
    if (!response.ok) throw new Error(`${kind}: HTTP ${response.status} ${text}`)
    cookie ??= response.headers.get('set-cookie')?.split(';')[0]
    const events = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ChatEvent)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    await followed()
    const question = chat?.follow ? events.find((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request') : undefined
    if (question) follow(question)
    return events
  }

  const answer = (request: PluginElicitRequestEvent, content: unknown) => ({
    messages,
    pluginElicitResponses: [
      { sessionId: request.sessionId, callId: request.callId, elicitId: request.elicitId, result: { action: 'accept', content } },
    ],
  })

  const flightRequest = elicitOf('start', await post('start', { messages: [{ role: 'user', content: BOOKING_MESSAGE }] }))
  const seatRequest = elicitOf('resume', await post('resume', answer(flightRequest, chooseFlight(flightRequest))))
  const done = await post('finish', answer(seatRequest, chooseSeat(seatRequest)))
  if (!done.some((event) => event.type === 'tool_result')) throw new Error(`finish: no ticket in ${JSON.stringify(done)}`)
  return timings
}

/** A booking as the chat page makes one in a new chat: three turns naming it, the first making it (`newChat`), by a browser new to the server, each question followed while it is shown. */
export async function bookInNewChat(baseUrl: string): Promise<Timed[]> {
  return await bookOverHttp({ baseUrl, chat: { id: newChatId(), newChat: true, follow: true } })
}

function elicitOf(kind: RequestKind, events: ChatEvent[]): PluginElicitRequestEvent {
  const request = events.find((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
  if (!request) throw new Error(`${kind}: no elicitation in ${JSON.stringify(events)}`)
  return request
}
