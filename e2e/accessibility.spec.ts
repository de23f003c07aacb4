import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { PickCardCard } from '../plugins/pick-card/e2e/pick-card-card'
import { TicTacToeCard } from '../plugins/tictactoe/e2e/tictactoe-card'

// axe-core (4.14, every rule at its default, label-content-name-mismatch among them) on every
// screen of the chat, light and dark, desktop and phone: no serious or critical violation. Each
// screen is also kept as a screenshot to look at.
const VARIANTS = [
  { name: 'desktop-light', viewport: { width: 1280, height: 860 }, colorScheme: 'light' },
  { name: 'desktop-dark', viewport: { width: 1280, height: 860 }, colorScheme: 'dark' },
  { name: 'phone-light', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
  { name: 'phone-dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
] as const

async function expectAccessible(page: Page, screen: string) {
  await page.screenshot({ path: test.info().outputPath(`${screen}.png`), fullPage: true })
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }))
  // Soft: one run reports every screen that fails, not only the first.
  expect.soft(serious, `axe on the ${screen} screen`).toEqual([])
}

for (const variant of VARIANTS) {
  test.describe(`accessibility, ${variant.name}`, () => {
    // Reduced motion: no transition half-way through when the colours are measured.
    test.use({ viewport: variant.viewport, colorScheme: variant.colorScheme, reducedMotion: 'reduce' })
    // Each axe run walks the whole page (the seat map alone is 70 buttons): on a busy 2-core
    // machine a flow with four of them needs more than the default 30 s.
    test.slow()

    test('the empty chat and a booking: flights, seats, confirmation, and each question looked at again', async ({ page }) => {
      const chat = new ChatPage(page)
      await chat.goto()
      await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
      await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
      await expectAccessible(page, 'empty')

      await chat.say('Book a flight from NYC to LAX')
      const booking = BookingCard.nth(page)
      await expect(booking.flights.first()).toBeEnabled()
      await expectAccessible(page, 'flight-list')

      await booking.pickFlight(0)
      await expect(booking.freeSeats.first()).toBeEnabled()
      await booking.freeSeats.first().click()
      await expect(booking.confirm).toBeEnabled()
      await expectAccessible(page, 'seat-picker')

      await booking.confirm.click()
      await expect(booking.confirmation).toBeVisible()
      await chat.waitUntilIdle()
      await expect(booking.root.locator('button:disabled')).toHaveCount(0)
      await expectAccessible(page, 'confirmation')

      // Both questions open again (the flights and the map as they were, nothing to press), and the tool's logs.
      await booking.answerLines.nth(0).click()
      await booking.answerLines.nth(1).click()
      await expect(booking.seatMap).toBeVisible()
      await booking.root.getByRole('button', { name: /^Logs \(\d+\)$/ }).click()
      await expect(booking.root.getByRole('list', { name: 'Tool logs' })).toBeVisible()
      await expectAccessible(page, 'confirmation-looked-at-again')
    })

    test('a booking stopped while its flights wait', async ({ page }) => {
      const chat = new ChatPage(page)
      await chat.goto()
      await chat.say('Book a flight from NYC to LAX')
      const booking = BookingCard.nth(page)
      await expect(booking.flights.first()).toBeEnabled()
      await chat.stop.click()
      await expect(booking.answerLines).toHaveText(['Flight Stopped before an answer'])
      await chat.waitUntilIdle()
      await booking.answerLines.first().click()
      await expect(booking.flightList).toBeVisible()
      await expectAccessible(page, 'stopped')
    })

    test('tic-tac-toe: the board, the board after a move, and the game over', async ({ page }) => {
      const chat = new ChatPage(page)
      await chat.goto()
      await chat.say("Let's play tic-tac-toe")
      const game = TicTacToeCard.nth(page)
      await expect(game.cell(1)).toBeEnabled()
      await expectAccessible(page, 'tictactoe')
      await game.play(1)
      await expect(game.cell(9)).toBeEnabled()
      await expectAccessible(page, 'tictactoe-move')
      await game.play(9)
      await game.play(7)
      const open = (await game.cell(4).getAttribute('aria-label')) === 'Cell 4, empty' ? 4 : 8
      await game.play(open)
      await expect(game.outcome).toHaveText('You won!')
      await chat.waitUntilIdle()
      await game.moveMade(1).click()
      await expectAccessible(page, 'tictactoe-won')
    })

    test('pick a card with analysis: the picker and the reveal', async ({ page }) => {
      const chat = new ChatPage(page)
      await chat.goto()
      await chat.say('Pick a card and help me choose')
      const game = PickCardCard.nth(page)
      await expect(game.analysis).toBeVisible()
      await expect(game.card(1)).toBeEnabled()
      await expectAccessible(page, 'pick-card')
      await game.pick(2)
      await expect(game.result).toBeVisible()
      await chat.waitUntilIdle()
      await game.answerLines.first().click()
      await expect(game.picker).toBeVisible()
      await expectAccessible(page, 'card-reveal')
    })
  })
}
