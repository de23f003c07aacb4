import { expect, test } from '@playwright/test'
import { bookingOnTwoPages, followsQuestion } from './support/booking-on-two-pages'

// The same person has a chat open twice (two pages of one browser, or two devices signed in as
// one); a question answered on one page is announced by the sessions that take the answer, so
// the other page, which follows the question it shows, reads the chat again and shows what came
// of the answer without a reload.
test('a question answered on one page shows answered on the person’s other page of the chat at once, with what came after it', async ({ page, context }) => {
  // Two pages of a booking, beside the other specs on 2 cores.
  test.setTimeout(60_000)
  const { first, onFirst, other, second, onSecond, entry } = await bookingOnTwoPages(page, context)

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
