import type { ChatEvent } from '../../protocol/events'
import type { Message } from '../../protocol/messages'

/*
 * The events of a booking as the engine streams them, for tests and the bench: a first turn that
 * ends waiting for the seat, and a second that answers it and ends with the ticket.
 */

export const BOOKING_CALL = { id: 'call_seat_1', name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

export const SEAT_QUESTION: Extract<ChatEvent, { type: 'plugin_elicit_request' }> = {
  type: 'plugin_elicit_request',
  sessionId: BOOKING_CALL.id,
  callId: BOOKING_CALL.id,
  toolName: 'book_flight',
  elicitId: 'book_flight:pickSeat:call_seat_1:2',
  key: 'pickSeat',
  message: 'Pick a seat on UA 123',
  context: { flight: 'UA 123' },
  schema: { type: 'object', properties: { seat: { type: 'string', title: 'Seat' } } },
  choices: { seat: [{ value: '10A', title: '10A · window' }] },
  fieldTitles: { seat: 'Seat' },
  choiceAnswers: { seat: { '10A': { row: 10, seat: 'A' } } },
}

/**
 * `SEAT_QUESTION` as a server before the context was a field of its own sent it, and a chat kept
 * (or exported) then still has it: its context encoded into its schema and after its message.
 */
export const EARLIER_SEAT_QUESTION = (() => {
  const { context, schema, message, ...rest } = SEAT_QUESTION
  return {
    ...rest,
    message: `${message}\n\n--x-model-context: application/json\n${JSON.stringify(context)}`,
    schema: { ...schema, 'x-model-context': context },
  } as unknown as ChatEvent
})()

export function conversation(...contents: string[]): Message[] {
  return contents.map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content }))
}

export const FIRST_TURN: ChatEvent[] = [
  { type: 'text', content: 'Let me book ' },
  { type: 'text', content: 'that flight.' },
  { type: 'tool_calls', calls: [{ ...BOOKING_CALL, title: 'NYC → LAX' }] },
  { type: 'plugin_progress', sessionId: BOOKING_CALL.id, callId: BOOKING_CALL.id, message: 'Finding flights', progress: 0.5 },
  SEAT_QUESTION,
  { type: 'conversation_state', messages: conversation('Book a flight from NYC to LAX', 'Let me book that flight.') },
  { type: 'complete', text: '' },
]

export const SEAT_ANSWER = {
  sessionId: BOOKING_CALL.id,
  callId: BOOKING_CALL.id,
  elicitId: SEAT_QUESTION.elicitId,
  result: { action: 'accept' as const, content: { row: 10, seat: 'A' } },
}

export const SECOND_TURN: ChatEvent[] = [
  { type: 'tool_result', id: BOOKING_CALL.id, name: 'book_flight', content: 'Booked: ticket TK-1234, seat 10A, $420' },
  { type: 'text', content: 'Your ticket is TK-1234.' },
  { type: 'conversation_state', messages: conversation('Book a flight from NYC to LAX', 'Let me book that flight.', 'Your ticket is TK-1234.') },
  { type: 'complete', text: 'Your ticket is TK-1234.' },
]
