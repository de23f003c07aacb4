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
   * As the chat page does while it shows a question: follow it on the server, on the response of
   * the turn that asked it (`follow`: read to its `turn_end`, then held, so that an answer or a
   * Stop from another page would reach it), let go as the answer is sent.
   */
  follow?: boolean
}

export async function bookOverHttp({ baseUrl, serverPid, chat, timeoutMs = 30_000 }: { baseUrl: string; serverPid?: number; chat?: BookingChat; timeoutMs?: number }): Promise<Timed[]> {
  let cookie: string | undefined = chat?.cookie
  const chatId = chat?.id
  let newChat = chat?.newChat === true
  let messages: Message[] = []
  const timings: Timed[] = []
  /** The response of the last turn, held after its `turn_end` while its question is shown: let go with the next request, as the page does. */
  let held: AbortController | undefined

  async function post(kind: RequestKind, body: unknown): Promise<ChatEvent[]> {
    held?.abort()
    held = undefined
    const cpuBefore = serverPid === undefined ? 0 : processCpuMs(serverPid)
    const started = performance.now()
    const abort = new AbortController()
    const response = await fetch(`${baseUrl}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(chatId === undefined ? body : { ...(body as object), chatId, ...(newChat ? { newChat } : {}), ...(chat?.follow ? { follow: true } : {}) }),
      signal: AbortSignal.any([abort.signal, AbortSignal.timeout(timeoutMs)]),
    })
    newChat = false
    const { text, turnEnd } = await readTurn(response)
    const ms = performance.now() - started
    timings.push(serverPid === undefined ? { kind, ms } : { kind, ms, cpuMs: processCpuMs(serverPid) - cpuBefore })
    if (!response.ok) throw new Error(`${kind}: HTTP ${response.status} ${text}`)
    cookie ??= response.headers.get('set-cookie')?.split(';')[0]
    const events = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ChatEvent)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    const asked = events.some((event) => event.type === 'plugin_elicit_request')
    if (chat?.follow && asked !== turnEnd) throw new Error(`${kind}: ${turnEnd ? 'followed a turn that asked nothing' : 'the question asked was not followed on the response (no turn_end)'}`)
    if (turnEnd) held = abort
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
  held?.abort()
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

/** A turn's response read to its end, or to its `turn_end` (the rest, the follow, is left to be let go): its lines, and whether it went on. */
async function readTurn(response: Response): Promise<{ text: string; turnEnd: boolean }> {
  if (!response.ok || !response.body) return { text: await response.text(), turnEnd: false }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { text: text + decoder.decode(), turnEnd: false }
    text += decoder.decode(value, { stream: true })
    const end = text.indexOf(TURN_END)
    if (end !== -1) {
      reader.releaseLock()
      return { text: text.slice(0, end), turnEnd: true }
    }
  }
}

const TURN_END = '{"type":"turn_end"}\n'
