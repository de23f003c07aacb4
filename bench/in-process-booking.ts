import type { ChatServer } from '../lib/engine/chat-server'
import { createChatTestClient, elicitRequests, type ChatTestClient } from '../lib/engine/testing/chat-test-client'
import type { ChatEvent, PluginElicitRequestEvent } from '../lib/protocol'
import { BOOKING_MESSAGE, chooseFlight, chooseSeat } from './booking-answers'

/** A booking through the real request handler in this process (no HTTP), as far as it has got. */
export interface InProcessBooking {
  client: ChatTestClient
  /** The question it waits on now. */
  request: PluginElicitRequestEvent
}

/** A new browser asks to book: the booking then waits on the FlightList. */
export async function startBooking(chat: ChatServer): Promise<InProcessBooking> {
  const client = createChatTestClient({ chat })
  return { client, request: waitingOn('start', (await client.say(BOOKING_MESSAGE)).events) }
}

/** Choose the first flight: the booking then waits on the SeatPicker. */
export async function answerFlight({ client, request }: InProcessBooking): Promise<InProcessBooking> {
  const turn = await client.answer([{ request, result: { action: 'accept', content: chooseFlight(request) } }])
  return { client, request: waitingOn('flight answer', turn.events, turn.error) }
}

/** Choose a free seat: the booking is done, with its ticket. */
export async function answerSeat({ client, request }: InProcessBooking): Promise<void> {
  const turn = await client.answer([{ request, result: { action: 'accept', content: chooseSeat(request) } }])
  if (!turn.events.some((event) => event.type === 'tool_result')) {
    throw new Error(`seat answer: no ticket in ${JSON.stringify(turn.error ?? turn.events)}`)
  }
}

/** A whole booking: three requests. */
export async function bookInProcess(chat: ChatServer): Promise<void> {
  await answerSeat(await answerFlight(await startBooking(chat)))
}

function waitingOn(step: string, events: ChatEvent[], error?: unknown): PluginElicitRequestEvent {
  const request = elicitRequests(events)[0]
  if (!request) throw new Error(`${step}: no question in ${JSON.stringify(error ?? events)}`)
  return request
}
