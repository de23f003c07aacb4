import { expect, test } from '@playwright/test'
import { BookingCard } from '@/plugins/book-flight/e2e/booking-card'
import { PickCardCard } from '@/plugins/pick-card/e2e/pick-card-card'
import { ChatPage } from './pages/chat-page'

test('the seat picker works by keyboard alone', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await chat.composer.fill('Book a flight from NYC to LAX')
  await page.keyboard.press('Enter')
  const booking = BookingCard.nth(page)
  await expect(booking.flights.first()).toBeEnabled()
  await booking.flights.first().focus()
  await page.keyboard.press('Enter')
  await expect(booking.seatMap).toBeVisible()

  const seat = booking.freeSeats.first()
  await seat.focus()
  await page.keyboard.press('Space')
  await expect(seat).toHaveAttribute('aria-pressed', 'true')
  await booking.confirm.focus()
  await page.keyboard.press('Enter')
  await expect(booking.confirmation).toBeVisible()
})

test('Shift+Enter makes a new line; Enter sends', async ({ page }) => {
  const chat = new ChatPage(page)
  await chat.goto()
  await chat.composer.fill('first line')
  await chat.composer.press('Shift+Enter')
  await chat.composer.pressSequentially('second line')
  await expect(chat.composer).toHaveValue('first line\nsecond line')
  await chat.composer.press('Enter')
  await expect(chat.userMessages.first()).toContainText('second line')
  await expect(chat.composer).toHaveValue('')
})

test.describe('at phone width, in dark mode', () => {
  test.use({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' })

  test('the booking fits the screen and the page is dark', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    await BookingCard.nth(page).pickFlight(0)
    await expect(BookingCard.nth(page).seatMap).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const [r, g, b] = background.match(/\d+/g)!.map(Number)
    expect(r! + g! + b!).toBeLessThan(150)
    await page.screenshot({ path: 'test-results/phone-dark-seat-picker.png', fullPage: true })
  })
})

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('a card’s heading is whole, wrapped rather than cut; after the booking only its lines and its ticket are left', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Pick a card and help me choose')
    const heading = page.getByTestId('tool-title')
    await expect(heading).toHaveText('Pick one of 5 cards, with analysis')
    // Nothing hidden by an ellipsis or an overflow: the text fits the box it is in.
    expect(await heading.evaluate((element) => element.scrollWidth <= element.clientWidth && getComputedStyle(element).textOverflow !== 'ellipsis')).toBe(true)
    await PickCardCard.nth(page).decline.click()
    await chat.waitUntilIdle()

    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await expect(booking.title).toHaveText('NYC → LAX')
    await booking.pickFlight(0)
    const seat = await booking.pickFreeSeat()
    await booking.expectConfirmed({ seat })
    await chat.waitUntilIdle()
    await expect(booking.answerLines).toHaveCount(2)
    await expect(booking.root.locator('button:disabled, [aria-disabled="true"]')).toHaveCount(0)
    for (const line of await booking.answerLines.all()) {
      expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
})
