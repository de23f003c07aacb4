import { expect, test, type BrowserContext } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { floodAddress, SPENDABLE_BUDGET, startFlood, type Flood } from './support/flood'

/** Junk that parses as JSON, so that it is charged to the server-wide budget, and that the server refuses at once (400). */
const JUNK = '{"messages":"x"}'
/** Requests in flight at once: as fast as the server answers. */
const FLOOD_CONNECTIONS = 16
/** The flood stops by itself after this long, whatever happens (the test stops it sooner). */
const FLOOD_MAX_MS = 60_000
/** The person, behind the same trusted proxy as everyone else. */
const PERSON_ADDRESS = '10.0.77.1'

// A server of its own with the default limits but a server-wide budget any machine outpaces
// (SPENDABLE_BUDGET; the shared server raises the limits), behind a trusted proxy as docs/deploying.md
// says to run it: the flood and the person each have their own address.
test.describe('a person under overload', () => {
  let app: AppProcess | undefined
  let flood: Flood | undefined
  let context: BrowserContext | undefined
  test.afterEach(async () => {
    await flood?.stop()
    flood = undefined
    await context?.close()
    context = undefined
    await app?.kill()
    app = undefined
  })

  // Issue 28: a flood spends the server-wide budget, and a person books — message, flight,
  // seat, ticket — with nothing to do twice. The message is new work, and may be refused once
  // and sent again by the browser (as its Retry-After says); the answers are work in progress,
  // never refused for the server's load, so each click works the first time.
  test('while a flood has spent the server-wide budget, a person books a flight clicking each thing once', async ({ browser }) => {
    // Starting a server, and a flood on a machine shared with the other worker.
    test.slow()
    app = await startApp({ env: { TRUST_PROXY: '1', ...SPENDABLE_BUDGET } })
    context = await browser.newContext({ baseURL: app.url, extraHTTPHeaders: { 'x-forwarded-for': PERSON_ADDRESS } })
    const page = await context.newPage()
    const chat = new ChatPage(page)
    await chat.goto()

    // What the browser sent to /api/chat, and what it was answered.
    const sent: Array<{ kind: 'message' | 'answer' | 'other'; status: number }> = []
    page.on('response', (response) => {
      if (!response.url().endsWith('/api/chat') || response.request().method() !== 'POST') return
      const body = response.request().postDataJSON() as { pluginElicitResponses?: unknown; pluginAbort?: unknown }
      sent.push({ kind: body.pluginElicitResponses ? 'answer' : body.pluginAbort ? 'other' : 'message', status: response.status() })
    })

    flood = startFlood({
      baseURL: app.url,
      connections: FLOOD_CONNECTIONS,
      maxMs: FLOOD_MAX_MS,
      next: (index) => ({ body: JUNK, headers: { 'content-type': 'application/json', 'x-forwarded-for': floodAddress(index) } }),
    })
    expect(await flood.refusedByServer(), `the flood never spent the server-wide budget: ${JSON.stringify(flood.statuses)}`).toBe(true)

    // An error shown in the page: what the person would have to act on (Next's route announcer is an empty alert of its own).
    const error = page.getByRole('alert').filter({ hasText: /\S/ })
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    // The flights, or an error the person would have to deal with (send the message again).
    await expect(booking.flightList.or(error).first()).toBeVisible()
    expect(await error.allTextContents(), `the person's requests: ${sent.map(({ kind, status }) => `${kind} ${status}`).join(', ')}`).toEqual([])
    await booking.pickFlight(0)
    await expect(booking.seatMap).toBeVisible()
    const seat = await booking.pickFreeSeat()
    const ticket = await booking.expectConfirmed({ seat })
    await expect(chat.lastAssistantMessage()).toContainText(ticket)
    await chat.waitUntilIdle()
    // The server still refused the flood for its load after the person's last answer.
    expect(await flood.refusedByServer(), 'the server-wide budget was no longer spent after the booking').toBe(true)
    const flooded = await flood.stop()

    // Nothing to do twice: one message, one booking, no error shown, no answer refused.
    await expect(chat.userMessages).toHaveCount(1)
    await expect(BookingCard.all(page)).toHaveCount(1)
    await expect(error).toHaveCount(0)
    const answers = sent.filter(({ kind }) => kind === 'answer')
    expect(answers.map(({ status }) => status)).toEqual([200, 200])
    expect(sent.filter(({ kind }) => kind === 'message').at(-1)?.status).toBe(200)

    console.log(
      `[overload] flood: ${flooded.sent} requests in ${flooded.seconds.toFixed(1)} s (${Math.round(flooded.sent / flooded.seconds)}/s), ${JSON.stringify(flooded.statuses)}; ` +
        `the person's requests: ${sent.map(({ kind, status }) => `${kind} ${status}`).join(', ')}; ticket ${ticket}`,
    )
    expect(Object.keys(flooded.statuses).every((outcome) => outcome === '400' || outcome.startsWith('429')), JSON.stringify(flooded.statuses)).toBe(true)
    expect((await page.request.get(`${app.url}/api/health`)).status()).toBe(200)
  })
})
