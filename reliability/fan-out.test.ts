import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startApp, type AppProcess } from '../e2e/support/app-process'
import { describeTurn } from '../plugins/book-flight/e2e/booking-answers'
import { elicitRequests } from '../e2e/support/chat-api'
import { browser } from './support/booking'
import { idleHealthMs, listSessions, probeHealthWhile, report } from './support/measure'

/**
 * Fan-out and slow input (issue 9): "from A to B to C … (1,000 cities)" once made ~1,000
 * sessions, a 2.7 MB answer and a 74 s turn; a 200 KB message blocked the event loop for
 * 5.4 s. Contract: a 429, or a turn with at most the per-step cap of tool calls that completes
 * normally; sessions bounded by that cap; `/api/health` answers within 100 ms meanwhile.
 */
const MAX_TOOL_CALLS_PER_STEP = 8
const HEALTH_BOUND_MS = Number(process.env.RELIABILITY_HEALTH_BOUND_MS ?? 100)

/** A turn that takes longer than this is a failure; the server is then killed, so the suite stays bounded. */
const TURN_DEADLINE_MS = 30_000

// A server per input: one input that blocks the event loop for minutes must not fail the next.
let app: AppProcess
beforeEach(async () => {
  app = await startApp({ env: { TRUST_PROXY: '1', MAX_TOOL_CALLS_PER_STEP: String(MAX_TOOL_CALLS_PER_STEP) } })
  // Warm: the first request to a route loads its code, which is not what is measured here.
  const warm = await browser({ baseURL: app.url, index: 99 }).say('Hello')
  expect(warm.status).toBe(200)
  await listSessions(app.url)
})
afterEach(async () => {
  await app?.kill()
})

/** `turn`, or a rejection after `ms` — when the server is killed, which ends the request too. */
async function withinDeadline<T>(turn: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void app.kill().then(() => reject(new Error(`No answer within ${ms / 1000} s: the server was killed.`)))
    }, ms)
  })
  try {
    return await Promise.race([turn, late])
  } finally {
    clearTimeout(timer)
  }
}

const cities = Array.from({ length: 1_000 }, (_, index) => `City${index}`)
const INPUTS: Array<[string, string]> = [
  ['1,000 cities in one message', `Book flights from ${cities.join(' to ')}`],
  ['200 KB: "from" and no "to"', `Book a flight from ${'a '.repeat(99_980)}`],
  ['200 KB: "to … from" repeated', `Book a flight ${'to x from '.repeat(19_990)}`],
  ['200 KB: clauses', `Book flights ${'from a to b and '.repeat(12_490)}`],
  ['200 KB of one word', `book ${'flight'.repeat(33_320)}`],
]

describe('fan-out and slow input', () => {
  for (const [index, [name, text]] of INPUTS.entries()) {
    it(`${name} (${Math.round(text.length / 1000)} KB): a 429 or at most ${MAX_TOOL_CALLS_PER_STEP} tool calls, and /api/health within ${HEALTH_BOUND_MS} ms`, async () => {
      expect(text.length).toBeLessThanOrEqual(200_000)
      const chat = browser({ baseURL: app.url, index: 100 + index })
      const before = (await listSessions(app.url)).length
      // On a loaded machine even an idle server answers slowly: the bound is on the delay added.
      const idleMs = await idleHealthMs(app.url)
      const started = performance.now()
      const { result: turn, slowestMs, probes } = await probeHealthWhile(app.url, withinDeadline(chat.say(text), TURN_DEADLINE_MS))
      const seconds = (performance.now() - started) / 1000
      const calls = turn.events.filter((event) => event.type === 'tool_calls').flatMap((event) => (event.type === 'tool_calls' ? event.calls : []))
      const opened = (await listSessions(app.url)).length - before
      const bytes = JSON.stringify(turn.events).length
      report(`fan-out: ${name}`, {
        status: turn.status,
        'tool calls': calls.length,
        'questions asked': elicitRequests(turn.events).length,
        'sessions opened': opened,
        'answer KB': bytes / 1000,
        'turn s': seconds,
        'slowest /api/health ms': slowestMs,
        'idle /api/health ms': idleMs,
        'health probes': probes,
      })
      expect(turn.status === 200 || turn.status === 429, describeTurn(turn)).toBe(true)
      if (turn.status === 200) {
        expect(turn.events.at(-1)?.type, describeTurn(turn)).toBe('complete')
        expect(calls.length).toBeLessThanOrEqual(MAX_TOOL_CALLS_PER_STEP)
      }
      expect(opened).toBeLessThanOrEqual(MAX_TOOL_CALLS_PER_STEP)
      expect(slowestMs - idleMs).toBeLessThan(HEALTH_BOUND_MS)
    })
  }
})
