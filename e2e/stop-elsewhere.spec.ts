import { expect, test } from '@playwright/test'
import { bookingOnTwoPages } from './support/booking-on-two-pages'

const STOPPED = 'The plugin session was stopped: Stopped by the user'

// Issue 37: the same person has a chat open twice (two pages of one browser, or two devices
// signed in as one); a Stop on one page is announced as an operator's End is, so the other page,
// which follows its question (GET /api/chats/:id/waiting), shows it stopped without a reload.
test('a Stop on one page shows on the person’s other page of the chat at once: its card stopped, the form gone, its sidebar mark gone', async ({ page, context }) => {
  // Two pages of a booking, beside the other specs on 2 cores.
  test.setTimeout(60_000)
  const { first, onFirst, other, second, onSecond, entry } = await bookingOnTwoPages(page, context)

  // Stop, on the first page.
  await first.stop.click()
  await expect(onFirst.status).toHaveText(/stopped/i)
  await expect(onFirst.answerLines).toHaveText(['Flight Stopped before an answer'])
  await first.waitUntilIdle()

  // The other page, untouched: stopped as on the first, with why; no form, no waiting mark, and the person may write there.
  await expect(onSecond.root).toContainText(STOPPED)
  await expect(onSecond.status).toHaveText(/stopped/i)
  await expect(onSecond.answerLines).toHaveText(['Flight Stopped before an answer'])
  await expect(onSecond.flights).toHaveCount(0)
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
  await second.waitUntilIdle()
  await expect(second.composer).toBeEditable()
  await onSecond.root.screenshot({ path: test.info().outputPath('stopped-elsewhere-card.png') })

  // Reloaded, it reads as the chat keeps it: stopped, and waiting on nothing.
  await other.reload()
  await expect(onSecond.status).toHaveText(/stopped/i)
  await expect(onSecond.flights).toHaveCount(0)
  await expect(entry).toBeVisible()
  await expect(entry).not.toHaveAccessibleName(/waiting for your answer/)
})
