import type { PluginElicitRequestEvent } from '@/lib/protocol'
import { contextOf, createChatApi, eventsOf, type ChatApi, type ChatTurn } from '@/e2e/support/chat-api'

/** What `book_flight` offers and returns, as far as these tests look at it. */
export interface OfferedFlight {
  id: string
  flightNumber: string
}
export interface SeatMap {
  firstRow: number
  lastRow: number
  letters: string[]
  taken: string[]
}
export interface ConfirmedBooking {
  status: 'confirmed'
  ticketNumber: string
  flight: OfferedFlight
  seat: string
}

/** The answer to a `pickFlight` question choosing its `index`th flight (0-based), and that flight. */
export function flightAnswer(event: PluginElicitRequestEvent, index = 0): { flight: OfferedFlight; content: { flightId: string } } {
  if (event.key !== 'pickFlight') throw new Error(`Expected a pickFlight question, got ${event.key}`)
  const flights = contextOf(event).flights as OfferedFlight[]
  const flight = flights[index]
  if (!flight) throw new Error(`pickFlight offers ${flights.length} flights, no flight ${index}`)
  return { flight, content: { flightId: flight.id } }
}

/** The answer to a `pickSeat` question choosing the first free seat, and that seat ("12C"). */
export function seatAnswer(event: PluginElicitRequestEvent): { seat: string; content: { row: number; seat: string } } {
  if (event.key !== 'pickSeat') throw new Error(`Expected a pickSeat question, got ${event.key}`)
  const map = contextOf(event).seatMap as SeatMap
  for (let row = map.firstRow; row <= map.lastRow; row++) {
    for (const letter of map.letters) {
      if (!map.taken.includes(`${row}${letter}`)) return { seat: `${row}${letter}`, content: { row, seat: letter } }
    }
  }
  throw new Error('The seat map has no free seat')
}

/** The parsed content of each `tool_result` of a turn. */
export function toolResults(turn: ChatTurn, name?: string): unknown[] {
  return eventsOf(turn.events, 'tool_result')
    .filter((event) => name === undefined || event.name === name)
    .map((event) => JSON.parse(event.content) as unknown)
}

/** The one confirmed booking of a turn; throws (with the events) otherwise. */
export function confirmedBooking(turn: ChatTurn): ConfirmedBooking {
  const results = toolResults(turn, 'book_flight')
  const [result] = results
  if (results.length !== 1 || (result as ConfirmedBooking | undefined)?.status !== 'confirmed') {
    throw new Error(`Expected one confirmed booking, got ${describeTurn(turn)}`)
  }
  return result as ConfirmedBooking
}

/** The text of the turn's `complete` event (the assistant's words). */
export function completedText(turn: ChatTurn): string | undefined {
  return eventsOf(turn.events, 'complete').at(-1)?.text
}

/**
 * Whether a delivery was refused without continuing anything: a 4xx with a JSON error, or a
 * stream whose only news is an `error`, `plugin_elicit_rejected` or `plugin_session_error`.
 */
export function isRefusal(turn: ChatTurn): boolean {
  if (turn.status >= 400 && turn.status < 500) {
    const error = (turn.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
    return typeof error?.code === 'string' && typeof error.message === 'string'
  }
  if (turn.status !== 200) return false
  return turn.events.some((event) => event.type === 'error' || event.type === 'plugin_elicit_rejected' || event.type === 'plugin_session_error')
}

/**
 * The same browser a second time: the same cookie and conversation, its own state from here
 * on, so that two deliveries sent at once do not write over each other's conversation.
 */
export function sameBrowser(chat: ChatApi, baseURL = chat.baseURL): ChatApi {
  const twin = createChatApi({ baseURL })
  twin.cookie = chat.cookie
  twin.messages = chat.messages
  return twin
}

/** A turn in one line for failure messages: status, JSON body or event types. */
export function describeTurn(turn: ChatTurn): string {
  if (turn.json !== undefined || turn.events.length === 0) return `${turn.status} ${JSON.stringify(turn.json)}`
  return `${turn.status} ${JSON.stringify(turn.events.filter((event) => event.type !== 'conversation_state' && event.type !== 'text'))}`
}
