import { expect, test, type Page } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { TicTacToeCard } from '../plugins/tictactoe/e2e/tictactoe-card'

// WCAG 2.4.3: the focus follows the conversation. A question that appears takes it from the
// composer; an answer hands it to what comes next; it never falls to <body> on the way.

/** From now on, note every moment the focus is on <body>: after each DOM change and each focus loss. */
async function watchFocusDrops(page: Page) {
  await page.evaluate(() => {
    const drops: string[] = []
    Object.assign(window, { focusDrops: drops })
    const check = (when: string) => {
      if (!document.activeElement || document.activeElement === document.body) drops.push(when)
    }
    new MutationObserver(() => check('after a DOM change')).observe(document.body, { subtree: true, childList: true, attributes: true })
    // A focus that moves on names its next element; one with none falls to the page, unless
    // something takes it before this task ends (between blur and focus the page itself is focused).
    document.addEventListener(
      'focusout',
      (event) => {
        if (event.relatedTarget === null) setTimeout(() => check(`after ${(event.target as Element).outerHTML.slice(0, 60)} lost the focus`))
      },
      true,
    )
  })
}

function focusDrops(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { focusDrops: string[] }).focusDrops)
}

/** Press Tab until `name`d control has the focus (a bounded number of times). */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>) {
  for (let presses = 0; presses < 12; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
}

test('a keyboard-only booking: the focus moves with each question and never falls to the page', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
  await tabTo(page, chat.composer)
  await watchFocusDrops(page)

  await page.keyboard.type('Book a flight from NYC to LAX')
  await page.keyboard.press('Enter')
  const booking = BookingCard.nth(page)
  // The flight list appeared while the focus was in the composer: it takes the focus.
  await expect(booking.flights.first()).toBeFocused()

  await page.keyboard.press('Tab')
  await expect(booking.flights.nth(1)).toBeFocused()
  await page.keyboard.press('Enter')
  // The answer is sent; the seat picker that comes next takes the focus.
  await expect(booking.freeSeats.first()).toBeFocused()

  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Space')
  await expect(booking.seatMap.locator('button[aria-pressed="true"]')).toHaveCount(1)
  await tabTo(page, booking.confirm)
  await page.keyboard.press('Enter')
  // The confirmation is what comes next.
  await expect(booking.confirmation).toBeVisible()
  await expect(booking.root.getByTestId('tool-result')).toBeFocused()
  await chat.waitUntilIdle()
  await expect(booking.root.getByTestId('tool-result')).toBeFocused()

  expect(await focusDrops(page)).toEqual([])
})

test('tic-tac-toe by keyboard: each new board takes the focus from the one just played', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
  await tabTo(page, chat.composer)
  await watchFocusDrops(page)

  await page.keyboard.type("Let's play tic-tac-toe")
  await page.keyboard.press('Enter')
  const game = TicTacToeCard.nth(page)
  // The first board starts on the centre.
  await expect(game.cell(5)).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(game.moveMade(5)).toBeVisible()
  // The model replied with a corner; the next board has the focus on one of its empty cells.
  await expect(game.board.getByRole('button', { name: /, empty$/ }).and(page.locator(':focus'))).toHaveCount(1)

  expect(await focusDrops(page)).toEqual([])
})

test('a suggestion chosen by keyboard: its button goes away, the focus does not fall to the page', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
  // Exactly the suggestion: the sidebar's menu button of the chat it starts ("Options for Book a flight…") would match too.
  const suggestion = page.getByRole('button', { name: 'Book a flight from NYC to LAX', exact: true })
  await tabTo(page, suggestion)
  await watchFocusDrops(page)
  await page.keyboard.press('Enter')
  await expect(suggestion).toHaveCount(0)
  await expect(BookingCard.nth(page).flights.first()).toBeFocused()
  expect(await focusDrops(page)).toEqual([])
})
