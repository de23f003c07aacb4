import { expect, test } from '@playwright/test'
import { ChatPage } from '@/e2e/pages/chat-page'
import { BookingCard } from './booking-card'

test.describe('booking a flight in the chat', () => {
  test('from a message to a ticket: FlightList, SeatPicker, confirmation and the summary', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')

    const booking = BookingCard.nth(page)
    await expect(booking.flightList).toBeVisible()
    await expect(booking.flightList.getByTestId('airplane-icon')).toBeVisible()
    await expect(booking.flights).toHaveCount(3)
    for (const flight of await booking.flights.all()) {
      await expect(flight).toHaveAccessibleName(/[A-Z]{2} \d{3}.*\$\d+/)
      await expect(flight).toContainText(/\d{2}:\d{2}/)
    }
    await expect(booking.progress).toBeVisible()

    await expect(booking.title).toHaveText('NYC → LAX')
    const flightName = await booking.pickFlight(1)
    const flightNumber = flightName.match(/[A-Z]{2} \d{3}/)![0]
    await expect(booking.seatMap).toBeVisible()
    // The FlightList folds to one line: what was asked, what was answered; the seats are the one open question.
    await expect(booking.flightList).toHaveCount(0)
    await expect(booking.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · \\d{2}:\\d{2} → \\d{2}:\\d{2} · \\$\\d+$`)])

    await expect(booking.seatMap.getByRole('columnheader', { name: 'A' })).toBeVisible()
    await expect(booking.seatMap.getByRole('rowheader').first()).toHaveText(/\d+/)
    await expect(booking.seatMap.locator('button[aria-label^="Seat "]:disabled').first()).toBeVisible()
    await expect(booking.confirm).toBeDisabled()

    const seat = await booking.pickFreeSeat()
    const ticket = await booking.expectConfirmed({ seat })
    await expect(booking.confirmation).toContainText(flightNumber)
    await expect(booking.confirmation).toContainText('LAX')
    // After the booking: two lines and the ticket; no question's buttons, nothing greyed out.
    await expect(booking.answerLines).toHaveText([new RegExp(`^Flight ${flightNumber} · `), new RegExp(`^Seat ${seat} · (window|aisle|middle)$`)])
    await expect(booking.seatMap).toHaveCount(0)
    await expect(booking.root.locator('button:disabled, [aria-disabled="true"]')).toHaveCount(0)
    await expect(booking.root.getByRole('button')).toHaveText([/^Flight /, /^Seat /, /^Logs \(\d+\)$/])

    // The seat question can be looked at again: the map as it was, the seat taken marked, nothing to press.
    await booking.answerLine(/^Seat /).click()
    await expect(booking.answerLine(/^Seat /)).toHaveAttribute('aria-expanded', 'true')
    await expect(booking.seatMap.getByRole('gridcell', { name: `Seat ${seat}, yours` })).toBeVisible()
    await expect(booking.seatMap.getByRole('button')).toHaveCount(0)
    await booking.answerLine(/^Seat /).click()
    await expect(booking.seatMap).toHaveCount(0)

    await expect(chat.lastAssistantMessage()).toContainText(ticket)
    await expect(chat.lastAssistantMessage()).toContainText(seat)
    await chat.waitUntilIdle()
  })

  test('declining the flight ends the tool and the assistant says nothing was booked', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await booking.decline.click()
    await expect(booking.notBooked).toContainText('No flight was chosen')
    await expect(booking.answerLines).toHaveText(['Flight Declined'])
    await expect(booking.flights).toHaveCount(0)
    await expect(chat.lastAssistantMessage()).toContainText(/nothing was booked/i)
  })

  test('cancelling at the seat step ends the tool cleanly', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await booking.pickFlight(0)
    await booking.cancel.click()
    await expect(booking.notBooked).toContainText('Seat selection was cancelled')
    await expect(chat.lastAssistantMessage()).toContainText(/nothing was booked/i)
    await expect(chat.lastAssistantMessage()).toContainText(/seat/i)
  })

  test('Stop while the FlightList waits ends the server session', async ({ page, request }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await expect(booking.flights.first()).toBeEnabled()
    const callId = await booking.root.getAttribute('data-call-id')
    expect(callId).toBeTruthy()
    expect((await (await request.get('/api/sessions')).json()).sessions.map((s: { id: string }) => s.id)).toContain(callId)

    await chat.stop.click()
    await expect(booking.status).toHaveText(/stopped/i)
    await expect(booking.answerLines).toHaveText(['Flight Stopped before an answer'])
    await expect(booking.flights).toHaveCount(0)
    await chat.waitUntilIdle()
    await expect
      .poll(async () => (await (await request.get('/api/sessions')).json()).sessions.map((s: { id: string }) => s.id))
      .not.toContain(callId)

    // The chat goes on.
    await chat.say('Hello')
    await expect(chat.lastAssistantMessage()).toContainText(/book flights/i)
  })

  test('a reload while the FlightList or the SeatPicker waits loses nothing', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    await expect(BookingCard.nth(page).flights.first()).toBeEnabled()

    await page.reload()
    await expect(chat.userMessages.first()).toContainText('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await expect(booking.flights.first()).toBeEnabled()
    await booking.pickFlight(2)
    await expect(booking.seatMap).toBeVisible()

    const chosen = await booking.answerLines.first().textContent()
    await page.reload()
    // The same after the reload: the flight folded to its line, the seat map the one open question.
    await expect(BookingCard.nth(page).answerLines).toHaveText([chosen!])
    await expect(BookingCard.nth(page).flightList).toHaveCount(0)
    const seat = await BookingCard.nth(page).pickFreeSeat()
    const ticket = await BookingCard.nth(page).expectConfirmed({ seat })
    await expect(chat.lastAssistantMessage()).toContainText(ticket)
    await page.reload()
    await expect(BookingCard.nth(page).confirmation).toContainText(ticket)
    await expect(BookingCard.nth(page).answerLines).toHaveText([chosen!, new RegExp(`^Seat ${seat} · `)])
    await expect(BookingCard.nth(page).root.locator('button:disabled')).toHaveCount(0)
  })

  test('two bookings in one chat, one after the other', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book a flight from NYC to LAX')
    await BookingCard.nth(page, 0).pickFlight(0)
    const firstSeat = await BookingCard.nth(page, 0).pickFreeSeat()
    const firstTicket = await BookingCard.nth(page, 0).expectConfirmed({ seat: firstSeat })
    await chat.waitUntilIdle()

    await chat.say('Book a flight from LAX to SEA')
    await expect(BookingCard.all(page)).toHaveCount(2)
    await BookingCard.nth(page, 1).pickFlight(0)
    const secondSeat = await BookingCard.nth(page, 1).pickFreeSeat()
    const secondTicket = await BookingCard.nth(page, 1).expectConfirmed({ seat: secondSeat })
    expect(secondTicket).not.toBe(firstTicket)
    await expect(BookingCard.nth(page, 1).confirmation).toContainText('SEA')
    await expect(BookingCard.nth(page, 0).confirmation).toContainText(firstTicket)
  })

  test('two trips in one message: both cards are answered together', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Book flights from NYC to LAX and from LAX to SEA')
    await expect(BookingCard.all(page)).toHaveCount(2)
    await BookingCard.nth(page, 0).pickFlight(0)
    await BookingCard.nth(page, 1).pickFlight(1)
    await expect(BookingCard.nth(page, 0).seatMap).toBeVisible()
    await expect(BookingCard.nth(page, 1).seatMap).toBeVisible()
    const seats = [await BookingCard.nth(page, 0).pickFreeSeat(), await BookingCard.nth(page, 1).pickFreeSeat()]
    const tickets = [
      await BookingCard.nth(page, 0).expectConfirmed({ seat: seats[0]! }),
      await BookingCard.nth(page, 1).expectConfirmed({ seat: seats[1]! }),
    ]
    for (const ticket of tickets) await expect(chat.lastAssistantMessage()).toContainText(ticket)
  })

  test('New chat starts over and clears the saved conversation', async ({ page }) => {
    const chat = new ChatPage(page)
    await chat.goto()
    await chat.say('Hello')
    await expect(chat.lastAssistantMessage()).toContainText(/book flights/i)
    await chat.waitUntilIdle()
    await chat.newChat.click()
    await expect(chat.userMessages).toHaveCount(0)
    await page.reload()
    await expect(chat.userMessages).toHaveCount(0)
  })
})
