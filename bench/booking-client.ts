import type { ChatEvent, Message, PluginElicitRequestEvent } from '../lib/protocol'
import { decodeModelContext } from '../lib/tools/model-context'
import type { Flight, SeatMap } from '../plugins/book-flight/flights'

export type RequestKind = 'start' | 'resume' | 'finish'

export interface Timed {
  kind: RequestKind
  ms: number
}

/** One browser's booking over HTTP: three requests, each timed to its last byte. */
export async function bookOverHttp(baseUrl: string): Promise<Timed[]> {
  let cookie: string | undefined
  let messages: Message[] = []
  const timings: Timed[] = []

  async function post(kind: RequestKind, body: unknown): Promise<ChatEvent[]> {
    const started = performance.now()
    const response = await fetch(`${baseUrl}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    timings.push({ kind, ms: performance.now() - started })
    if (!response.ok) throw new Error(`${kind}: HTTP ${response.status} ${text}`)
    cookie ??= response.headers.get('set-cookie')?.split(';')[0]
    const events = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ChatEvent)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) messages = state.messages
    return events
  }

  const answer = (request: PluginElicitRequestEvent, content: unknown) => ({
    messages,
    pluginElicitResponses: [
      { sessionId: request.sessionId, callId: request.callId, elicitId: request.elicitId, result: { action: 'accept', content } },
    ],
  })

  const flightRequest = elicitOf(await post('start', { messages: [{ role: 'user', content: 'Book a flight from NYC to LAX' }] }))
  const flights = contextOf(flightRequest).flights as Flight[]
  const seatRequest = elicitOf(await post('resume', answer(flightRequest, { flightId: flights[0]!.id })))
  const done = await post('finish', answer(seatRequest, freeSeat(contextOf(seatRequest).seatMap as SeatMap)))
  if (!done.some((event) => event.type === 'tool_result')) throw new Error(`finish: no ticket in ${JSON.stringify(done)}`)
  return timings
}

function elicitOf(events: ChatEvent[]): PluginElicitRequestEvent {
  const request = events.find((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
  if (!request) throw new Error(`no elicitation in ${JSON.stringify(events)}`)
  return request
}

function contextOf(request: PluginElicitRequestEvent) {
  return decodeModelContext({ message: request.message, schema: request.schema }).context
}

export function freeSeat(seatMap: SeatMap) {
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const seat of seatMap.letters) if (!seatMap.taken.includes(`${row}${seat}`)) return { row, seat }
  }
  throw new Error('no free seat')
}
