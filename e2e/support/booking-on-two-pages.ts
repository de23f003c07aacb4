import { expect, type BrowserContext, type Page, type Request } from '@playwright/test'
import { BookingCard } from '../../plugins/book-flight/e2e/booking-card'
import { ChatPage } from '../pages/chat-page'
import { ChatsSidebar } from '../pages/chats-sidebar'

/** Whether `sent` is a page's watch of the questions it shows (`GET /api/chats/:id/waiting?questions=`) following the question `key`. */
export function followsQuestion(key: string): (sent: Request) => boolean {
  return (sent) => {
    const url = new URL(sent.url())
    return /^\/api\/chats\/[^/]+\/waiting$/.test(url.pathname) && (url.searchParams.get('questions') ?? '').split('/')[1] === key
  }
}

/**
 * The same person with a chat open twice (two pages of one browser context: one identity): a
 * flight booking said on `page`, waiting on its flight question, then opened on another page,
 * which shows the question, marks the chat waiting in its sidebar, and follows the question.
 */
export async function bookingOnTwoPages(page: Page, context: BrowserContext) {
  const first = new ChatPage(page)
  await first.goto()
  await first.say('Book a flight from NYC to LAX')
  const onFirst = BookingCard.nth(page)
  await expect(onFirst.flights.first()).toBeEnabled()
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/)

  const other = await context.newPage()
  const following = other.waitForRequest(followsQuestion('pickFlight'))
  await other.goto(page.url())
  const second = new ChatPage(other)
  const onSecond = BookingCard.nth(other)
  await expect(onSecond.flights.first()).toBeEnabled()
  const entry = new ChatsSidebar(other).entry('Book a flight from NYC to LAX')
  await expect(entry).toHaveAccessibleName(/waiting for your answer/)
  await following
  return { first, onFirst, other, second, onSecond, entry }
}
