import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import type { PendingQuestion } from '@/lib/runtime/pending-question'
import { replayOnly, startTool } from '@/lib/runtime/testing/start-tool'
import { seatMapFor, type Flight, type SeatMap } from './flights'
import { bookFlightTool } from './tool'

// book_flight run by the runtime's own journaling client, whose seam the test plays: every ctx
// call in order, the questions it asks again and why, and a replay that books the same ticket.

describe('book_flight through a journaling client', () => {
  function contextOf<T>(request: PendingQuestion): T {
    return request.context as T
  }
  function seatAnswer(seat: string) {
    return { row: Number(seat.slice(0, -1)), seat: seat.slice(-1) }
  }

  function* book(trail: string[]) {
    const tool = yield* startTool({ tool: bookFlightTool, params: { from: 'NYC', destination: 'LAX' }, callId: 'call_abc', trail })
    const pickFlight = yield* tool.next('ask')
    expect(pickFlight.request.elicitId).toBe('book_flight/pickFlight/call_abc/4')
    const { from, destination, flights } = contextOf<{ from: string; destination: string; flights: Flight[] }>(pickFlight.request)
    expect({ from, destination }).toEqual({ from: 'NYC', destination: 'LAX' })
    expect(flights).toHaveLength(3)
    expect(pickFlight.request.message).toMatch(/^Select your flight from NYC to LAX:\n\n1\. /)

    pickFlight.answer({ action: 'accept', content: { flightId: 'XX-000' } })
    const askAgain = yield* tool.next('ask')
    expect(askAgain.request.key).toBe('pickFlight')
    expect(askAgain.request.message).toMatch(/^Flight XX-000 is not one of the offered flights/)
    const flight = flights[1]!
    askAgain.answer({ action: 'accept', content: { flightId: flight.id } })

    const pickSeat = yield* tool.next('ask')
    const { seatMap, flight: shown } = contextOf<{ seatMap: SeatMap; flight: Flight }>(pickSeat.request)
    expect(shown).toEqual(flight)
    expect(seatMap).toEqual(seatMapFor(flight))
    expect(pickSeat.request.message).toBe(`Select your seat on ${flight.flightNumber}: ${72 - seatMap.taken.length} of 72 seats are free.`)
    expect(pickSeat.answer({ action: 'accept', content: { row: 12, seat: 'c' } })).toMatchObject({
      ok: false,
      code: 'invalid_response',
      issues: [{ path: 'seat' }],
    })

    const taken = seatMap.taken[0]
    if (!taken) throw new Error('expected a taken seat on the flight')
    pickSeat.answer({ action: 'accept', content: seatAnswer(taken) })
    const takenAgain = yield* tool.next('ask')
    expect(takenAgain.request.key).toBe('pickSeat')
    expect(takenAgain.request.message).toBe(`Seat ${taken} is taken. Select another seat on ${flight.flightNumber}:`)

    takenAgain.answer({ action: 'accept', content: { row: 99, seat: 'A' } })
    const notOnBoard = yield* tool.next('ask')
    expect(notOnBoard.request.message).toBe(`Seat 99A is not on this aircraft. Select another seat on ${flight.flightNumber}:`)

    const free = freeSeat(seatMap)
    notOnBoard.answer({ action: 'accept', content: seatAnswer(free) })
    const sample = yield* tool.next('sample')
    expect(sample.request).toMatchObject({
      seq: 14,
      messages: [{ role: 'user', content: expect.stringContaining('LAX') }],
      maxTokens: 120,
    })
    sample.resolve({ text: '  Take the FlyAway bus to Union Station.  ' })
    const result = yield* tool.task
    return { result, journal: tool.journal, emitted: tool.emitted, flight, free }
  }

  it('books: a flight not offered and a taken seat are asked again, then a free seat, then the tip', async () => {
    const trail: string[] = []
    const { result, journal, emitted, flight, free } = await run(() => book(trail))
    const ticketNumber = (result as { ticketNumber: string }).ticketNumber
    expect(result).toEqual({
      status: 'confirmed',
      ticketNumber: expect.stringMatching(/^TKT-[A-Z2-9]{6}$/),
      flight,
      seat: free,
      price: flight.price,
      tip: 'Take the FlyAway bus to Union Station.',
    })
    // Every ctx call in order, numbered 1 to 17; each recorded before the tool went on.
    expect(trail).toEqual([
      'emit notify 1',
      'emit log 2',
      'emit notify 3',
      'ask pickFlight 4',
      'answered 4',
      'emit notify 5',
      'ask pickFlight 6',
      'answered 6',
      'emit notify 7',
      'ask pickSeat 8',
      'answered 8',
      'emit notify 9',
      'ask pickSeat 10',
      'answered 10',
      'emit notify 11',
      'ask pickSeat 12',
      'answered 12',
      'emit notify 13',
      'sample 14',
      'record sample 14',
      'recorded 14',
      'record step 15',
      'recorded 15',
      'emit log 16',
      'emit notify 17',
    ])
    expect(journal.map((entry) => [entry.seq, entry.kind])).toEqual([
      [4, 'elicit'],
      [6, 'elicit'],
      [8, 'elicit'],
      [10, 'elicit'],
      [12, 'elicit'],
      [14, 'sample'],
      [15, 'step'],
    ])
    expect(journal.at(-1)).toEqual({ seq: 15, kind: 'step', name: 'issue ticket', value: ticketNumber })
    expect(emitted.slice(-2)).toEqual([
      { type: 'log', seq: 16, level: 'info', message: `Issued ticket ${ticketNumber} for ${flight.flightNumber}, seat ${free}` },
      { type: 'notify', seq: 17, message: 'Booking confirmed', progress: 1 },
    ])
  })

  it('books the same ticket when replayed from its journal, asking nothing again', async () => {
    const first = await run(() => book([]))
    const again = await replayOnly(bookFlightTool, { from: 'NYC', destination: 'LAX' }, first.journal, 'call_abc')
    expect(again.result).toEqual(first.result)
    expect(again.trail).toEqual(['emit log 16', 'emit notify 17'])
  })

  it('returns cancelled at the flight step when the user declines', async () => {
    const { result, journal } = await run(function* () {
      const tool = yield* startTool({ tool: bookFlightTool, params: { from: 'NYC', destination: 'LAX' } })
      ;(yield* tool.next('ask')).answer({ action: 'decline' })
      return { result: yield* tool.task, journal: tool.journal }
    })
    expect(result).toEqual({
      status: 'cancelled',
      step: 'flight',
      message: 'The user declined to choose a flight; nothing was booked.',
    })
    expect(journal).toEqual([{ seq: 4, kind: 'elicit', key: 'pickFlight', answer: { action: 'decline' } }])
  })

  it('refuses arguments that do not match with "Invalid arguments for book_flight", before any ctx call', async () => {
    const trail: string[] = []
    const refused = await run(function* () {
      const tool = yield* startTool({ tool: bookFlightTool, params: { from: 'N', destination: 'LAX' }, trail })
      return yield* tool.task
    }).then(
      () => new Error('expected the call to fail'),
      (error: unknown) => error,
    )
    expect((refused as Error).message).toMatch(/^Invalid arguments for book_flight: from: \S/)
    expect(trail).toEqual([])
  })
})

function freeSeat(seatMap: SeatMap): string {
  for (let row = seatMap.firstRow; row <= seatMap.lastRow; row++) {
    for (const letter of seatMap.letters) {
      if (!seatMap.taken.includes(`${row}${letter}`)) return `${row}${letter}`
    }
  }
  throw new Error('The cabin is full')
}
