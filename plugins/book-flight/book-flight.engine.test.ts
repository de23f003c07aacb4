import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChatServer, type ChatServer } from '@/lib/engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf, textOf, type ChatTestClient } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel } from '@/lib/models'
import type { PluginElicitRequestEvent } from '@/lib/protocol'
import { freeSeats, type Flight, type SeatMap } from './flights'
import { bookFlightOffline } from './offline'
import { bookFlightTool } from './tool'

let chat: ChatServer
let client: ChatTestClient

beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookFlightOffline] }), tools: [bookFlightTool] })
  client = createChatTestClient({ chat })
})
afterEach(() => chat.close())

function contextOf(request: PluginElicitRequestEvent) {
  return request.context
}

function freeSeat(request: PluginElicitRequestEvent) {
  const [free] = freeSeats(contextOf(request).seatMap as SeatMap)
  if (!free) throw new Error('no free seat')
  return { row: free.row, seat: free.letter }
}

async function startBooking(text = 'Book a flight from NYC to LAX') {
  const turn = await client.say(text)
  const [request] = elicitRequests(turn.events)
  if (!request) throw new Error(`no elicitation in ${JSON.stringify(turn.events)}`)
  return { turn, request }
}

describe('book_flight through the HTTP contract', () => {
  it('asks for a flight, then a seat, then returns a ticket with a travel tip for the destination', async () => {
    const { turn, request } = await startBooking()
    expect(eventsOf(turn.events, 'tool_calls')[0]?.calls).toEqual([
      { id: request.callId, name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' }, title: 'NYC → LAX' },
    ])
    expect(eventsOf(turn.events, 'plugin_progress')[0]).toMatchObject({ sessionId: request.sessionId, message: 'Searching flights from NYC to LAX', progress: 0.1 })
    expect(eventsOf(turn.events, 'plugin_log')[0]).toMatchObject({ level: 'info', message: 'Found 3 flights from NYC to LAX' })
    expect(request).toMatchObject({ toolName: 'book_flight', key: 'pickFlight', sessionId: request.callId })
    expect(request.message).toMatch(/^Select your flight from NYC to LAX:\n\n1\. /)
    const flights = request.context.flights as Flight[]
    expect(flights).toHaveLength(3)
    expect(request.schema).toMatchObject({ type: 'object', properties: { flightId: { type: 'string' } } })

    const second = await client.answer([{ request, result: { action: 'accept', content: { flightId: flights[1]!.id } } }])
    const [seatRequest] = elicitRequests(second.events)
    expect(seatRequest).toMatchObject({ key: 'pickSeat', sessionId: request.sessionId })
    expect((contextOf(seatRequest!).flight as Flight).id).toBe(flights[1]!.id)

    const seat = freeSeat(seatRequest!)
    const third = await client.answer([{ request: seatRequest!, result: { action: 'accept', content: seat } }])
    const ticket = JSON.parse(eventsOf(third.events, 'tool_result')[0]!.content)
    expect(ticket).toMatchObject({
      status: 'confirmed',
      ticketNumber: expect.stringMatching(/^TKT-/),
      seat: `${seat.row}${seat.seat}`,
      price: flights[1]!.price,
      flight: { id: flights[1]!.id },
    })
    expect(ticket.tip).toContain('LAX')
    expect(textOf(third.events)).toContain(ticket.ticketNumber)
    expect(await chat.listActive()).toEqual([])
  })

  it('ends cleanly when the flight is declined, and the assistant says nothing was booked', async () => {
    const { request } = await startBooking()
    const turn = await client.answer([{ request, result: { action: 'decline' } }])
    const result = JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)
    expect(result).toEqual({ status: 'cancelled', step: 'flight', message: 'The user declined to choose a flight; nothing was booked.' })
    expect(textOf(turn.events)).toMatch(/nothing (was|has been) booked|not booked|no booking/i)
    expect(await chat.listActive()).toEqual([])
  })

  it('ends cleanly when the seat step is cancelled', async () => {
    const { request } = await startBooking()
    const flights = contextOf(request).flights as Flight[]
    const second = await client.answer([{ request, result: { action: 'accept', content: { flightId: flights[0]!.id } } }])
    const turn = await client.answer([{ request: elicitRequests(second.events)[0]!, result: { action: 'cancel' } }])
    expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)).toMatchObject({ status: 'cancelled', step: 'seat' })
    expect(textOf(turn.events)).toMatch(/^Nothing was booked — the booking was cancelled at the seat selection step/)
  })

  it('books each trip of one message in its own call', async () => {
    const first = await client.say('Book flights from NYC to LAX and from LAX to SEA')
    const requests = elicitRequests(first.events)
    expect(requests.map((request) => contextOf(request).destination)).toEqual(['LAX', 'SEA'])
    const second = await client.answer(
      requests.map((request) => ({ request, result: { action: 'accept' as const, content: { flightId: (contextOf(request).flights as Flight[])[0]!.id } } })),
    )
    const seats = elicitRequests(second.events)
    const third = await client.answer(seats.map((request) => ({ request, result: { action: 'accept' as const, content: freeSeat(request) } })))
    const results = eventsOf(third.events, 'tool_result').map((event) => JSON.parse(event.content))
    expect(results.map((result) => result.flight.to).sort()).toEqual(['LAX', 'SEA'])
    for (const result of results) expect(textOf(third.events)).toContain(result.ticketNumber)
  })

  it('asks again, saying why, when the flight id is well formed but not offered', async () => {
    const { request } = await startBooking()
    const turn = await client.answer([{ request, result: { action: 'accept', content: { flightId: 'XX-000' } } }])
    const [again] = elicitRequests(turn.events)
    expect(again).toMatchObject({ key: 'pickFlight' })
    expect(again!.message).toMatch(/^Flight XX-000 is not one of the offered flights\. Select your flight:\n\n1\. /)
  })
})
