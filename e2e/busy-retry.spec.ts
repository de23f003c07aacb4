import { expect, test, type Page } from '@playwright/test'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { BookingCard } from '@/plugins/book-flight/e2e/booking-card'

/**
 * A busy server, as a person sees it: a message refused with 429 is sent again by the browser
 * after `Retry-After`, with a quiet countdown in place of an error, and Stop gives the wait up.
 *
 * The server's budget is tiny (4 at once, one more every 10 s) and spent by four requests from
 * other addresses just before the person sends: their message finds the budget empty and is
 * held a slot a few seconds ahead (admission.ts), so its first try is refused and its retry is
 * admitted — whatever the machine's speed, as long as it sends within those 10 s.
 */
test.describe('a busy server', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  async function busyServer(page: Page) {
    app = await startApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_GLOBAL_BURST: '4', RATE_LIMIT_GLOBAL_PER_SECOND: '0.1' } })
    const chat = new ChatPage(page)
    await page.goto(app.url)
    await expect(chat.composer).toBeEditable()
    // Other clients spend it: four new requests (bad ones: cheap 400s), each from an address of
    // its own. (The sidebar's list of chats and the chat's making are charged to the person's
    // address only, never to the server's budget: they do not spend it.)
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${app.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${index}.0.1` },
        body: JSON.stringify({ messages: 'not a conversation' }),
      })
      expect(response.status).toBe(400)
    }
    const busy = page.getByTestId('busy-retry')
    // Any error a person could read (Next's route announcer is an empty alert, always there).
    const errors = page.getByRole('alert').filter({ hasText: /\S/ })
    return { chat, busy, errors }
  }

  test('a message refused while the server is busy is sent again by itself; the person books with nothing to redo', async ({ page }) => {
    const { chat, busy, errors } = await busyServer(page)
    const refusals: number[] = []
    page.on('response', (response) => {
      if (response.url().endsWith('/api/chat') && response.status() === 429) refusals.push(response.status())
    })
    await chat.say('Book a flight from NYC to LAX')

    await expect(busy).toHaveText(/^Busy — trying again in \d+ s$/)
    await expect(errors).toHaveCount(0)
    // The Stop button stays, so the wait can be given up.
    await expect(chat.stop).toBeVisible()

    const booking = BookingCard.nth(page)
    await expect(booking.flights.first()).toBeVisible({ timeout: 20_000 })
    await expect(busy).toHaveText('')
    expect(refusals).toHaveLength(1)
    // Sent once by the person, once again by the browser: one message in the conversation.
    await expect(chat.userMessages).toHaveCount(1)

    await booking.pickFlight(0)
    const seat = await booking.pickFreeSeat()
    await booking.expectConfirmed({ seat })
    await chat.waitUntilIdle()
    await expect(errors).toHaveCount(0)
  })

  test('Stop during the wait gives the retry up: the notice goes and the chat is ready for the next message', async ({ page }) => {
    const { chat, busy, errors } = await busyServer(page)
    await chat.say('Book a flight from NYC to LAX')
    await expect(busy).toHaveText(/^Busy — trying again in \d+ s$/)

    await chat.stop.click()
    await expect(busy).toHaveText('')
    await chat.waitUntilIdle()
    await expect(chat.composer).toBeEditable()
    await expect(errors).toHaveCount(0)
    await expect(BookingCard.all(page)).toHaveCount(0)
  })
})
