import { test as base, expect, type Request } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import type { OperatorView } from '../lib/protocol/operator-view'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar } from './pages/chats-sidebar'
import { appsFixture, type Apps } from './support/apps-fixture'

const test = base.extend<{ apps: Apps }>({ apps: appsFixture })

const ADMIN_TOKEN = 'an-admin-token-for-the-ended-call-spec'
const ENDED = 'The plugin session was stopped: An operator ended this question.'

// Issue 37, the operator's view: an admin ends a waiting call and the person sees it ended, at
// once on the page that shows it (on the response of the turn that asked, held after its
// turn_end), and on every read after.
test('an admin ends alice’s waiting booking: her open chat shows it ended without a reload, the sidebar’s mark goes, and a reload shows the same', async ({ apps, page, request }) => {
  // A server of its own to start, a booking, a reload: on a shared 2-core machine, beside the other specs.
  test.setTimeout(90_000)
  const app = await apps.start({ env: { ADMIN_TOKEN } })
  const alice = new ChatPage(page)
  const sidebar = new ChatsSidebar(page)
  await page.goto(app.url)
  // The page follows its question on the response of the turn that asked it, held open: no request of its own.
  const followsOfTheirOwn: string[] = []
  page.on('request', (sent) => {
    if (/^\/api\/chats\/[^/]+\/waiting$/.test(new URL(sent.url()).pathname)) followsOfTheirOwn.push(sent.url())
  })
  // The turn's request (the one POST of this test) is over once its response ends or the page lets it go.
  const isTurn = (sent: Request) => new URL(sent.url()).pathname === '/api/chat' && sent.method() === 'POST'
  const turnOver = new Promise<void>((resolve) => {
    page.on('requestfinished', (sent) => isTurn(sent) && resolve())
    page.on('requestfailed', (sent) => isTurn(sent) && resolve())
  })
  await alice.say('Book a flight from NYC to LAX')
  const booking = BookingCard.nth(page)
  await expect(booking.flightList).toBeVisible()
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/)
  const entry = sidebar.entry('Book a flight from NYC to LAX')
  await expect(entry).toHaveAccessibleName(/waiting for your answer/)

  // The admin, elsewhere (the API with the token), ends it.
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` }
  const view = (await (await request.get(`${app.url}/api/admin/operator`, { headers: admin })).json()) as OperatorView
  expect(view.waiting.map((call) => [call.tool, call.question])).toEqual([['book_flight', 'pickFlight']])
  const { account, callId } = view.waiting[0]!
  const ended = await request.post(`${app.url}/api/admin/waiting-calls/end`, { headers: admin, data: { account, callId } })
  expect(ended.status()).toBe(200)

  // Alice's page, untouched: the card says an operator ended it, the form is gone, the mark too, and she may write again.
  await expect(booking.root).toContainText(ENDED)
  await expect(booking.flightList).toHaveCount(0)
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
  // Told on the turn's response, which then ended (or was let go); no request followed it besides.
  await turnOver
  expect(followsOfTheirOwn).toEqual([])
  // Nothing waits any more: no Stop, and she may write.
  await alice.waitUntilIdle()
  await expect(alice.composer).toBeEditable()
  await booking.root.screenshot({ path: test.info().outputPath('ended-card.png') })

  // The same after a reload: read from the chat and the sessions, not from the page's memory.
  await page.reload()
  await expect(booking.root).toContainText(ENDED)
  await expect(booking.flightList).toHaveCount(0)
  await expect(entry).toBeVisible()
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
  await booking.root.screenshot({ path: test.info().outputPath('ended-card-reloaded.png') })
})
