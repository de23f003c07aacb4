import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confirmedBooking, describeTurn, flightAnswer, seatAnswer } from '../plugins/book-flight/e2e/booking-answers'
import { startApp, type AppProcess } from '../e2e/support/app-process'
import { eventsOf, type ChatApi, type ChatTurn } from '../e2e/support/chat-api'
import { floodAddress, FLOOD_ADDRESSES, SPENDABLE_BUDGET, startFlood, type RawAnswer } from '../e2e/support/flood'
import { browser } from './support/booking'
import { addressOf, isAlive, listSessions, report } from './support/measure'

/**
 * Overload (issue 28), from outside, against a server with the default limits (but a server-wide
 * budget any machine outpaces, SPENDABLE_BUDGET) started as docs/deploying.md says (behind a trusted
 * proxy): a flood of junk from a few hundred addresses in three /24s spends the
 * server-wide budget, and meanwhile what people already have in progress is never refused for
 * it — a dozen bookings answer both their questions, a Stop is heard —, and new clients that
 * honour `Retry-After` reach the flight question within seconds (docs/deploying.md, "Under load:
 * what is refused first"). Afterwards the server is healthy and every flood request got a 4xx.
 *
 * Nothing here waits for time to pass but the new clients, as `Retry-After` tells them: the
 * flood goes on until the server refuses it for its load, whatever the machine's speed, and
 * until after the last of the others has been answered.
 */
const BOOKINGS = 12
const NEW_CLIENTS = 5
/** A client that sent nothing before gets in on its first try, or on its second at the time its `Retry-After` named; three is a margin. */
const NEW_CLIENT_MAX_TRIES = 3
/** How long a new client may take to reach the flight question: a bound on correctness (a Retry-After of a second or two, and a turn), not a benchmark. */
const NEW_CLIENT_BOUND_S = 15
const FLOOD_CONNECTIONS = 16
/** The flood stops by itself after this long, or this many requests, whatever happens. */
const FLOOD_MAX_MS = 60_000
const FLOOD_MAX_REQUESTS = 100_000
/** Junk that parses as JSON, so that it is charged to the server-wide budget, and that the server refuses at once (400). */
const JUNK = '{"messages":"x"}'

/**
 * The nth new client: an address of its own, in a /24 of its own (10.0.<n>.1) — but the last,
 * 10.200.0.250, behind the same /24 as a third of the flood (10.200.0.1–100), whose requests are
 * refused: a neighbour of a flood is held a slot, not refused with it.
 */
const newClientIndex = (index: number) => (index === NEW_CLIENTS - 1 ? (200 << 16) + 250 : (index + 10) * 256 + 1)

let app: AppProcess
beforeAll(async () => {
  app = await startApp({ env: { TRUST_PROXY: '1', ...SPENDABLE_BUDGET } })
})
afterAll(async () => {
  await app?.kill()
})

/** What is wrong with a flood request's answer: anything but a 400 or a 429 with a JSON error (and Retry-After). */
function floodProblem(answer: RawAnswer | Error): string | undefined {
  if (answer instanceof Error) return `no answer: ${answer.message}`
  if (answer.status !== 400 && answer.status !== 429) return `${answer.status}: ${answer.text.slice(0, 200)}`
  try {
    const error = (JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } }).error
    if (typeof error?.code !== 'string' || typeof error.message !== 'string') return `${answer.status} without { error: { code, message } }: ${answer.text.slice(0, 200)}`
  } catch {
    return `${answer.status} whose body is not JSON: ${answer.text.slice(0, 200)}`
  }
  if (answer.status === 429 && !answer.headers['retry-after']) return '429 without Retry-After'
  return undefined
}

/** A booking waiting at its flight question answers it, then the seat: both turns, in order. */
async function answerBoth(chat: ChatApi, flight: NonNullable<ChatTurn['elicit']>): Promise<ChatTurn[]> {
  const seatQuestion = await chat.answer({ event: flight, content: flightAnswer(flight).content })
  if (seatQuestion.elicit?.key !== 'pickSeat') return [seatQuestion]
  return [seatQuestion, await chat.answer({ event: seatQuestion.elicit, content: seatAnswer(seatQuestion.elicit).content })]
}

interface NewClient {
  turn: ChatTurn
  tries: number
  seconds: number
  /** What each try got: `200`, or `429 (Retry-After 1)`. */
  answers: string[]
}

/** A new client asking for a booking as a browser that honours Retry-After does: on a 429 it waits as told, then sends again. */
async function reachFlightQuestion(chat: ChatApi): Promise<NewClient> {
  const started = performance.now()
  const answers: string[] = []
  for (let tries = 1; ; tries++) {
    const turn = await chat.startBooking()
    answers.push(turn.status === 429 ? `429 (Retry-After ${turn.retryAfter})` : String(turn.status))
    if (turn.status !== 429 || turn.retryAfter === undefined || tries === NEW_CLIENT_MAX_TRIES + 2) return { turn, tries, seconds: (performance.now() - started) / 1000, answers }
    await new Promise((resolve) => setTimeout(resolve, turn.retryAfter! * 1000))
  }
}

/** The ticket of a turn that confirmed a booking. */
function ticketOf(turn: ChatTurn | undefined): string | undefined {
  try {
    return turn && confirmedBooking(turn).ticketNumber
  } catch {
    return undefined
  }
}

describe('overload', () => {
  it(`a flood from ${FLOOD_ADDRESSES} addresses spends the server-wide budget: ${BOOKINGS} bookings answer both questions with none refused, a Stop is heard, ${NEW_CLIENTS} new clients honouring Retry-After reach the flight question, every flood request gets a 4xx`, async () => {
    // Before the flood: the bookings and the one to stop, each waiting at its flight question.
    const chats = Array.from({ length: BOOKINGS + 1 }, (_, index) => browser({ baseURL: app.url, index: 2 + index }))
    const flights = await Promise.all(chats.map((chat) => chat.startBooking()))
    for (const turn of flights) expect(turn.elicit?.key, describeTurn(turn)).toBe('pickFlight')
    const stopping = flights[BOOKINGS]!.elicit!

    const flood = startFlood({
      baseURL: app.url,
      connections: FLOOD_CONNECTIONS,
      maxMs: FLOOD_MAX_MS,
      next: (index) => (index < FLOOD_MAX_REQUESTS ? { body: JUNK, headers: { 'content-type': 'application/json', 'x-forwarded-for': floodAddress(index) } } : undefined),
      check: floodProblem,
    })
    let spentBefore = false
    let spentAfter = false
    let sentBeforeSpent = 0
    let bookings: ChatTurn[][] = []
    let stop: ChatTurn | undefined
    let newClients: NewClient[] = []
    try {
      spentBefore = await flood.refusedByServer()
      sentBeforeSpent = Object.values(flood.statuses).reduce((sum, count) => sum + count, 0)
      if (spentBefore) {
        // All at once, while the flood goes on.
        ;[bookings, stop, newClients] = await Promise.all([
          Promise.all(chats.slice(0, BOOKINGS).map((chat, index) => answerBoth(chat, flights[index]!.elicit!))),
          chats[BOOKINGS]!.abort(stopping.sessionId, 'Stopped by the user'),
          // New clients come once every flood address has sent more than its fair share (a count,
          // not a time): before that, a flood address's first requests look like a new client's.
          flood.refusedByServer(FLOOD_ADDRESSES * 5).then(() =>
            Promise.all(Array.from({ length: NEW_CLIENTS }, (_, index) => reachFlightQuestion(browser({ baseURL: app.url, index: newClientIndex(index) })))),
          ),
        ])
        // And the server still refused the flood for its load after the last of them.
        spentAfter = await flood.refusedByServer()
      }
    } finally {
      await flood.stop()
    }
    const flooded = await flood.done

    const alive = isAlive(app.pid)
    const health = (await fetch(`${app.url}/api/health`)).status
    const refused = bookings.flat().filter((turn) => turn.status !== 200)
    const tickets = bookings.map((turns) => ticketOf(turns[1]))
    const stopped = stop && stop.status === 200 && eventsOf(stop.events, 'tool_error').some((event) => event.id === stopping.sessionId)
    const stillWaiting = (await listSessions(app.url)).some((session) => session.id === stopping.sessionId)
    report('overload', {
      'flood seconds': flooded.seconds,
      'flood requests': flooded.sent,
      'flood per second': flooded.sent / flooded.seconds,
      'flood statuses': flooded.statuses,
      'sent until the first server-scope 429': sentBeforeSpent,
      'bookings completed': `${tickets.filter(Boolean).length}/${BOOKINGS}`,
      'booking answers refused': refused.length,
      stop: stop ? `${stop.status}${stopped ? ', the tool stopped' : ''}` : 'not sent',
      'new clients: tries': newClients.map((client) => client.tries),
      'new clients: seconds': newClients.map((client) => Math.round(client.seconds * 10) / 10),
      'new clients: answers': newClients.map((client) => client.answers.join(' → ')),
      'server alive': alive,
      health,
    })
    expect(spentBefore, `no 429 for the server's load in ${flooded.sent} flood requests (${JSON.stringify(flooded.statuses)}): the budget was never spent`).toBe(true)
    expect(refused.map(describeTurn)).toEqual([])
    for (const [index, turns] of bookings.entries()) {
      expect(turns.map((turn) => turn.elicit?.key ?? turn.status), `booking ${index}: ${turns.map(describeTurn).join(' | ')}`).toEqual(['pickSeat', 200])
      expect(tickets[index], turns.map(describeTurn).join(' | ')).toMatch(/^TKT-/)
    }
    expect(new Set(tickets).size).toBe(BOOKINGS)
    expect(stopped, stop && describeTurn(stop)).toBe(true)
    expect(stillWaiting).toBe(false)
    for (const client of newClients) {
      expect(client.turn.elicit?.key, `${client.answers.join(' → ')}: ${describeTurn(client.turn)}`).toBe('pickFlight')
      expect(client.tries, client.answers.join(' → ')).toBeLessThanOrEqual(NEW_CLIENT_MAX_TRIES)
      expect(client.seconds).toBeLessThan(NEW_CLIENT_BOUND_S)
    }
    expect(spentAfter, 'the server-wide budget was no longer spent after the bookings, the Stop and the new clients').toBe(true)
    expect(alive).toBe(true)
    expect(health).toBe(200)
    expect(Object.keys(flooded.statuses).every((outcome) => outcome === '400' || outcome.startsWith('429')), JSON.stringify(flooded.statuses)).toBe(true)
    expect(flooded.problems.slice(0, 10)).toEqual([])
  })
})
