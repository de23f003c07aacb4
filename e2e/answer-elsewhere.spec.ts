import { expect, test } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar } from './pages/chats-sidebar'

/** The page's watch of the questions it shows (GET /api/chats/:id/waiting?questions=), following the question `key`. */
const followsQuestion = (key: string) => (sent: { url(): string }) => {
  const url = new URL(sent.url())
  return /^\/api\/chats\/[^/]+\/waiting$/.test(url.pathname) && (url.searchParams.get('questions') ?? '').split('/')[1] === key
}

// The same person has a chat open twice (two pages of one browser, or two devices signed in as
// one); a question answered on one page is announced by the sessions that take the answer, so
// the other page, which follows the question it shows, reads the chat again and shows what came
// of the answer without a reload.
test('a question answered on one page shows answered on the person’s other page of the chat at once, with what came after it', async ({ page, context }) => {
  // Two pages of a booking, beside the other specs on 2 cores.
  test.setTimeout(60_000)
  const first = new ChatPage(page)
  await first.goto()
  await first.say('Book a flight from NYC to LAX')
  const onFirst = BookingCard.nth(page)
  await expect(onFirst.flights.first()).toBeEnabled()
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/)

  // The other page: the same browser context, so the same identity, opens the same chat and follows its question.
  const other = await context.newPage()
  const followingFlight = other.waitForRequest(followsQuestion('pickFlight'))
  await other.goto(page.url())
  const second = new ChatPage(other)
  const onSecond = BookingCard.nth(other)
  await expect(onSecond.flights.first()).toBeEnabled()
  const entry = new ChatsSidebar(other).entry('Book a flight from NYC to LAX')
  await expect(entry).toHaveAccessibleName(/waiting for your answer/)
  await followingFlight

  // The flight, answered on the first page.
  const followingSeat = other.waitForRequest(followsQuestion('pickSeat'))
  const flight = await onFirst.pickFlight(0)
  const flightNumber = flight.match(/[A-Z]{2} \d{3}/)![0]
  await expect(onFirst.seatMap).toBeVisible()

  // The other page, untouched: the flight form gone, the flight folded to its answer line, the seat map waiting, and followed.
  await expect(onSecond.flights).toHaveCount(0)
  await expect(onSecond.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · `)])
  await expect(onSecond.seatMap).toBeVisible()
  await followingSeat
  await expect(entry).toHaveAccessibleName(/waiting for your answer/)

  // The seat, answered on the first page: the booking is confirmed there.
  const seat = await onFirst.pickFreeSeat()
  const ticket = await onFirst.expectConfirmed({ seat })
  await first.waitUntilIdle()

  // And on the other page: confirmed with the same ticket, no form, no waiting mark, and the person may write there.
  await expect(onSecond.confirmation).toContainText(ticket)
  await expect(onSecond.seatMap).toHaveCount(0)
  await expect(onSecond.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · `), new RegExp(`^Seat ${seat} · `)])
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
  await second.waitUntilIdle()
  await expect(second.composer).toBeEditable()
  await onSecond.root.screenshot({ path: test.info().outputPath('answered-elsewhere-card.png') })

  // Reloaded, it reads as the chat keeps it: the same.
  await other.reload()
  await expect(onSecond.confirmation).toContainText(ticket)
  await expect(entry).toBeVisible()
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
})
