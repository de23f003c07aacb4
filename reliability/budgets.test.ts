import { describe, expect, it } from 'vitest'
import { flightAnswer, seatAnswer, confirmedBooking } from '../plugins/book-flight/e2e/booking-answers'
import { browser } from './support/booking'
import { processesPerTest } from './support/processes'

const SECRET = 'reliability-suite-secret-of-at-least-32-chars'
const ADMIN_TOKEN = 'reliability-suite-admin-token'

const processes = processesPerTest()

/**
 * Model budgets across instances (issue 35, item 5): two servers on one Redis count one
 * identity's model tokens in one counter. Contract: what one instance counted refuses the
 * identity's next message on the other (429 `budget_exhausted`), while its booking started on the
 * first still finishes on the second; the admin's view on either shows the same use.
 */
describe('model budgets shared by two instances on one Redis', () => {
  it('spends the budget on one instance and refuses the next message on the other; the booking in progress finishes there', async () => {
    const redis = await processes.redis()
    const env = { TRUST_PROXY: '1', REDIS_URL: redis.url, SESSION_SECRET: SECRET, MODEL_BUDGET_TOKENS_PER_DAY: '50', ADMIN_TOKEN }
    const [a, b] = await Promise.all([processes.app({ env }), processes.app({ env })])
    const chat = browser({ baseURL: a.url, index: 1 })

    const start = await chat.startBooking()
    expect(start.status).toBe(200)
    expect(start.elicit?.key).toBe('pickFlight')
    const conversation = chat.messages

    chat.messages = []
    const refused = await chat.say('Hello', { baseURL: b.url })
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ error: { code: 'budget_exhausted', resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) } })

    chat.messages = conversation
    const seat = await chat.answer({ event: start.elicit!, content: flightAnswer(start.elicit!).content }, { baseURL: b.url })
    expect(seat.elicit?.key).toBe('pickSeat')
    const done = await chat.answer({ event: seat.elicit!, content: seatAnswer(seat.elicit!).content }, { baseURL: b.url })
    expect(confirmedBooking(done).ticketNumber).toMatch(/\S/)

    const views = await Promise.all(
      [a, b].map(async (app) => (await fetch(`${app.url}/api/admin/usage`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()),
    )
    expect(views[0]).toEqual(views[1])
    expect(views[0].accounts).toHaveLength(1)
    expect(views[0].accounts[0].tokens).toBeGreaterThan(50)
  })
})
