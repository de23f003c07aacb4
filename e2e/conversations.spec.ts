import { test as base, expect, type Page } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { appsFixture, type Apps } from './support/apps-fixture'

// Chats kept on the server (issue 25): the chat lives at /c/<id>; a restart (kill -9) keeps it,
// a question waiting in it too; another browser gets "not found"; reload, back and forward work.
// Every server here is a real `node scripts/start.mjs` process (run `npm run build` first).

const test = base.extend<{ apps: Apps }>({ apps: appsFixture })

const CHAT_URL = /\/c\/([A-Za-z0-9_-]{22})$/

/** The id of the chat the page shows, once its URL names it. */
async function chatIdOf(page: Page): Promise<string> {
  await expect(page).toHaveURL(CHAT_URL)
  return CHAT_URL.exec(page.url())![1]!
}

test.describe('chats kept on the server', () => {
  test.describe.configure({ timeout: 90_000 })

  test('three chats, one waiting at the seat: after kill -9 and a restart the sidebar reopens it as it was, the seat is answered, the ticket comes; another browser gets "not found"', async ({
    apps,
    page,
    browser,
  }) => {
    let app = await apps.start()
    const chat = new ChatPage(page)
    await page.goto(app.url)
    await expect(chat.composer).toBeEditable()

    // A booking, answered up to the seat: the first message made the chat, and the URL names it.
    await chat.say('Book a flight from NYC to LAX')
    const waiting = await chatIdOf(page)
    const booking = BookingCard.nth(page)
    const flightName = await booking.pickFlight(0)
    const flightNumber = flightName.match(/[A-Z]{2} \d{3}/)![0]
    await expect(booking.seatMap).toBeVisible()

    // Two more chats; New chat keeps the one before (the URL goes back to /).
    await chat.newChat.click()
    await expect(page).toHaveURL(`${app.url}/`)
    await expect(BookingCard.all(page)).toHaveCount(0)
    await chat.say('Hello there')
    const second = await chatIdOf(page)
    expect(second).not.toBe(waiting)
    await chat.waitUntilIdle()
    await chat.newChat.click()
    await expect(page).toHaveURL(`${app.url}/`)
    await chat.say('What can you do?')
    const third = await chatIdOf(page)
    await chat.waitUntilIdle()
    expect(new Set([waiting, second, third]).size).toBe(3)

    // Back: the second chat, by its URL.
    await page.goBack()
    await expect(page).toHaveURL(new RegExp(`/c/${second}$`))
    await expect(chat.userMessages).toHaveText(['Hello there'])

    // The server is killed and started again on the same data.
    await app.kill('SIGKILL')
    app = await apps.start({ dataDir: app.dataDir })

    // Reopened from the sidebar: the booking's chat says it waits for an answer.
    await page.goto(app.url)
    const chats = page.getByRole('navigation', { name: 'Chats' })
    await expect(chats.getByRole('link')).toHaveCount(3)
    const waitingLink = chats.getByRole('link', { name: /waiting for your answer/ })
    await expect(waitingLink).toHaveAttribute('href', `/c/${waiting}`)
    await waitingLink.click()
    await expect(page).toHaveURL(new RegExp(`/c/${waiting}$`))
    await expect(chat.userMessages).toHaveText(['Book a flight from NYC to LAX'])
    // As it was: the flight folded to its answer line, the seat map the one open question.
    await expect(booking.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · `)])
    await expect(booking.seatMap).toBeVisible()
    const seat = await booking.pickFreeSeat()
    const ticket = await booking.expectConfirmed({ seat })
    await expect(chat.lastAssistantMessage()).toContainText(ticket)
    await chat.waitUntilIdle()

    // Reload: the same chat, with its ticket.
    await page.reload()
    await expect(booking.confirmation).toContainText(ticket)
    await expect(booking.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · `), new RegExp(`^Seat ${seat} · `)])

    // Forward and back between two chats' URLs.
    await page.goto(`${app.url}/c/${third}`)
    await expect(chat.userMessages).toHaveText(['What can you do?'])
    await page.goBack()
    await expect(page).toHaveURL(new RegExp(`/c/${waiting}$`))
    await expect(booking.confirmation).toContainText(ticket)
    await page.goForward()
    await expect(page).toHaveURL(new RegExp(`/c/${third}$`))
    await expect(chat.userMessages).toHaveText(['What can you do?'])

    // Another browser: not found, nothing of the chat, and a way to a new chat.
    const stranger = await browser.newContext()
    try {
      const other = await stranger.newPage()
      await other.goto(`${app.url}/c/${waiting}`)
      await expect(other.getByRole('heading', { name: 'Chat not found' })).toBeVisible()
      await expect(BookingCard.all(other)).toHaveCount(0)
      await expect(other.getByTestId('user-message')).toHaveCount(0)
      await other.getByRole('link', { name: 'Start a new chat' }).click()
      await expect(other).toHaveURL(`${app.url}/`)
      await expect(other.getByRole('textbox', { name: 'Message' })).toBeEditable()
    } finally {
      await stranger.close()
    }
  })

  test('a question that waited past the sessions’ idle time says so on the open page, and the chat stops saying it waits', async ({ apps, page }) => {
    const app = await apps.start({ env: { PLUGIN_SESSION_IDLE_TIMEOUT_MS: '1500' } })
    const chat = new ChatPage(page)
    await page.goto(app.url)
    await chat.say('Book a flight from NYC to LAX')
    const id = await chatIdOf(page)
    const booking = BookingCard.nth(page)
    const chats = page.getByRole('navigation', { name: 'Chats' })
    await expect(chats.getByRole('link', { name: /Book a flight/ })).toHaveAttribute('href', `/c/${id}`)

    // The session ends once its idle time has passed (the server lists it no more).
    const sessionIds = async () => {
      const response = await fetch(`${app.url}/api/sessions`)
      return ((await response.json()) as { sessions: Array<{ id: string }> }).sessions.map((session) => session.id)
    }
    await expect.poll(sessionIds, { timeout: 15_000 }).toEqual([])

    // The open page, which follows its question, says so without a reload (GET /api/chats/:id/waiting),
    // and the chat no longer says it waits.
    await expect(booking.root).toContainText(/The plugin session was stopped: .*expired/)
    await expect(booking.flights).toHaveCount(0)
    await chat.waitUntilIdle()
    await expect(chats.getByRole('link', { name: /waiting for your answer/ })).toHaveCount(0)
    // Reopened later, the chat reads the same: the sessions are asked about the call it left waiting.
    await page.reload()
    await expect(booking.root).toContainText(/The plugin session was stopped: .*expired/)
    await expect(booking.flights).toHaveCount(0)
    await expect(chats.getByRole('link', { name: /Book a flight/ })).toHaveAttribute('href', `/c/${id}`)
    await expect(chats.getByRole('link', { name: /waiting for your answer/ })).toHaveCount(0)
  })
})
