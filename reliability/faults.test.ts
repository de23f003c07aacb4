import { describe, expect, it } from 'vitest'
import { describeTurn, flightAnswer, seatAnswer, toolResults } from '../plugins/book-flight/e2e/booking-answers'
import { eventsOf, type ChatApi, type ChatTurn } from '../e2e/support/chat-api'
import { browser, reloaded } from './support/booking'
import { listSessions, report } from './support/measure'
import { processesPerTest } from './support/processes'

/**
 * Faults (issue 9): `kill -9` in the middle of questions and answers, then a restart on the same
 * embedded store; Redis stopped and started in the middle of bookings. Contract: every booking
 * completes or fails with a clear error, and nothing is booked twice.
 */
const BOOKINGS = 6
const SECRET = 'reliability-suite-secret-of-at-least-32-chars'

const processes = processesPerTest()

/** Every ticket number in a turn, by session (the tool call id). */
function ticketsOf(turn: ChatTurn, into: Map<string, Set<string>>): void {
  for (const event of eventsOf(turn.events, 'tool_result')) {
    const result = JSON.parse(event.content) as { status?: string; ticketNumber?: string }
    if (event.name === 'book_flight' && result.status === 'confirmed' && result.ticketNumber) {
      const tickets = into.get(event.id) ?? new Set<string>()
      tickets.add(result.ticketNumber)
      into.set(event.id, tickets)
    }
  }
}

/** A clear refusal while the store is away: a 503 `store_unavailable`, or a stream that says so. */
function isClearStoreError(turn: ChatTurn): boolean {
  if (turn.status === 503) return (turn.json as { error?: { code?: string; message?: string } } | undefined)?.error?.code === 'store_unavailable'
  return turn.status === 200 && eventsOf(turn.events, 'error').some((event) => event.code === 'store_unavailable' && event.message.length > 0)
}

describe('faults', () => {
  it(`kill -9 with ${BOOKINGS} bookings waiting and one answer in flight, then a restart on the same store: all complete, none twice`, async () => {
    const first = await processes.app({ env: { TRUST_PROXY: '1' } })
    const chats: ChatApi[] = []
    const questions: Array<NonNullable<ChatTurn['elicit']>> = []
    for (let index = 0; index < BOOKINGS; index++) {
      const chat = browser({ baseURL: first.url, index: 5_000 + index })
      let question = (await chat.startBooking()).elicit!
      expect(question?.key).toBe('pickFlight')
      // Half of them one step further: waiting for a seat.
      if (index % 2 === 1) {
        const next = await chat.answer({ event: question, content: flightAnswer(question).content })
        expect(next.elicit?.key, describeTurn(next)).toBe('pickSeat')
        question = next.elicit!
      }
      chats.push(chat)
      questions.push(question)
    }
    // One more answer is on its way when the process dies.
    const tickets = new Map<string, Set<string>>()
    const inFlightIndex = 1
    const inFlight = questions[inFlightIndex]!
    const lost = chats[inFlightIndex]!.answer({ event: inFlight, content: seatAnswer(inFlight).content }).then(
      (turn) => ticketsOf(turn, tickets),
      () => undefined,
    )
    await first.kill('SIGKILL')
    await lost

    const second = await processes.app({ env: { TRUST_PROXY: '1' }, dataDir: first.dataDir })
    let completed = 0
    const problems: string[] = []
    for (const [index, chat] of chats.entries()) {
      const again = reloaded(chat, 5_000 + index)
      again.baseURL = second.url
      let question = questions[index]!
      try {
        if (question.key === 'pickFlight') {
          const next = await again.answer({ event: question, content: flightAnswer(question).content })
          if (next.elicit?.key !== 'pickSeat') throw new Error(`flight after restart: ${describeTurn(next)}`)
          question = next.elicit
        }
        // The answer lost in the crash is sent again, as the browser would after a reload.
        const done = await again.answer({ event: question, content: seatAnswer(question).content })
        ticketsOf(done, tickets)
        const booked = (toolResults(done, 'book_flight') as Array<{ status?: string }>).some((result) => result.status === 'confirmed')
        const late = done.status === 409 || eventsOf(done.events, 'plugin_session_error').length > 0
        if (booked) completed++
        else if (!(index === inFlightIndex && late && tickets.has(question.sessionId))) throw new Error(`seat after restart: ${describeTurn(done)}`)
        else completed++
      } catch (error) {
        problems.push(`#${index}: ${(error as Error).message.slice(0, 400)}`)
      }
    }
    const twice = [...tickets].filter(([, numbers]) => numbers.size > 1)
    report('faults: kill -9 and restart (embedded store)', { bookings: BOOKINGS, completed, problems: problems.length, 'booked twice': twice.length, 'waiting after': (await listSessions(second.url)).length })
    expect(problems).toEqual([])
    expect(twice).toEqual([])
    expect(completed).toBe(BOOKINGS)
    expect(tickets.size).toBe(BOOKINGS)
  })

  it(`Redis stopped and started in the middle of ${BOOKINGS} bookings: clear errors while it is away, then all complete, none twice`, async () => {
    const redis = await processes.redis()
    const app = await processes.app({ env: { TRUST_PROXY: '1', REDIS_URL: redis.url, SESSION_SECRET: SECRET } })
    const chats = Array.from({ length: BOOKINGS }, (_, index) => browser({ baseURL: app.url, index: 6_000 + index }))
    const flights: Array<NonNullable<ChatTurn['elicit']>> = []
    for (const chat of chats) {
      const turn = await chat.startBooking()
      expect(turn.elicit?.key, describeTurn(turn)).toBe('pickFlight')
      flights.push(turn.elicit!)
    }
    await redis.stop()
    const unclear: string[] = []
    const whileAway = await Promise.all(chats.map((chat, index) => reloaded(chat, 6_000 + index).answer({ event: flights[index]!, content: flightAnswer(flights[index]!).content })))
    for (const turn of whileAway) if (!isClearStoreError(turn)) unclear.push(describeTurn(turn))
    const newBooking = await browser({ baseURL: app.url, index: 6_100 }).startBooking()
    const newBookingClear = newBooking.status === 503 || eventsOf(newBooking.events, 'error').length > 0 || eventsOf(newBooking.events, 'tool_error').length > 0
    await redis.start()
    await expect.poll(async () => (await fetch(`${app.url}/api/sessions`)).status, { timeout: 15_000 }).toBe(200)

    const tickets = new Map<string, Set<string>>()
    let completed = 0
    const problems: string[] = []
    for (const [index, chat] of chats.entries()) {
      try {
        const seat = await chat.answer({ event: flights[index]!, content: flightAnswer(flights[index]!).content })
        if (seat.elicit?.key !== 'pickSeat') throw new Error(`flight after Redis came back: ${describeTurn(seat)}`)
        const done = await chat.answer({ event: seat.elicit, content: seatAnswer(seat.elicit).content })
        ticketsOf(done, tickets)
        // The same answer again: refused, never a second ticket.
        const again = await reloaded(chat, 6_000 + index).answer({ event: seat.elicit, content: seatAnswer(seat.elicit).content })
        ticketsOf(again, tickets)
        completed++
      } catch (error) {
        problems.push(`#${index}: ${(error as Error).message.slice(0, 400)}`)
      }
    }
    const twice = [...tickets].filter(([, numbers]) => numbers.size > 1)
    report('faults: Redis stopped and started', {
      bookings: BOOKINGS,
      'clear errors while away': `${BOOKINGS - unclear.length}/${BOOKINGS}`,
      'new booking while away': newBookingClear ? 'clear error' : describeTurn(newBooking),
      completed,
      'booked twice': twice.length,
    })
    expect(unclear).toEqual([])
    expect(newBookingClear, describeTurn(newBooking)).toBe(true)
    expect(problems).toEqual([])
    expect(twice).toEqual([])
    expect(tickets.size).toBe(BOOKINGS)
  })
})
