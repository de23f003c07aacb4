import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { appsFixture, type Apps } from './support/apps-fixture'

const test = base.extend<{ apps: Apps }>({ apps: appsFixture })

const ADMIN_TOKEN = 'an-admin-token-for-this-test-only'

/** axe at its defaults: no serious or critical violation, on each width and colour scheme the app is checked in. */
async function expectAccessible(page: Page, screen: string) {
  for (const [width, height] of [[1280, 860], [390, 844]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height })
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' })
      await page.screenshot({ path: test.info().outputPath(`${screen}-${width}-${colorScheme}.png`), fullPage: true })
      const { violations } = await new AxeBuilder({ page }).analyze()
      const serious = violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({ rule: violation.id, nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`) }))
      expect.soft(serious, `axe on ${screen} at ${width} px, ${colorScheme}`).toEqual([])
    }
  }
}

test.describe("the operator's view", () => {
  // Eight axe runs (two screens, each at two widths in light and dark) on a shared 2-core machine.
  test.setTimeout(300_000)

  test('an admin sees the booking question waiting, ends it, and the person’s chat says an operator ended it; others are refused', async ({ apps, page, browser }) => {
    // Kept in memory for 10 min: the check that it is hot does not race the axe runs before it.
    const app = await apps.start({ env: { ADMIN_TOKEN, INSTANCE_NAME: 'instance-a', MODEL_BUDGET_TOKENS_PER_DAY: '1000000', PLUGIN_SESSION_HOT_MS: '600000' } })

    // The person asks for a booking: its first question waits.
    const chat = new ChatPage(page)
    await page.goto(app.url)
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await expect(booking.flightList).toBeVisible()

    // The person is no admin: the API refuses them with its code, and the page offers only the token's form.
    const refused = await page.request.get(`${app.url}/api/admin/operator`)
    expect(refused.status()).toBe(401)
    expect((await refused.json()).error.code).toBe('admin_only')
    const notEnded = await page.request.post(`${app.url}/api/admin/waiting-calls/end`, { data: { account: '0123456789abcdef', callId: 'x' } })
    expect(notEnded.status()).toBe(401)

    const adminContext = await browser.newContext()
    try {
      const admin = await adminContext.newPage()
      await admin.goto(`${app.url}/admin`)
      await expect(admin.getByRole('heading', { name: 'Operator’s view' })).toBeVisible()
      const tokenField = admin.getByLabel('Admin token')
      await expect(admin.getByRole('heading', { name: /Tool calls waiting/ })).toHaveCount(0)
      await expectAccessible(admin, 'token-form')

      // A wrong token is refused in the form; the right one opens the view. Neither is ever in the address.
      await tokenField.fill('not-the-token')
      await admin.getByRole('button', { name: 'Open the operator’s view' }).click()
      await expect(admin.getByRole('alert').filter({ hasText: /\S/ })).toHaveText('That is not the admin token.')
      await tokenField.fill(ADMIN_TOKEN)
      await admin.getByRole('button', { name: 'Open the operator’s view' }).click()
      await expect(admin.getByRole('heading', { name: 'Tool calls waiting for an answer (1)' })).toBeVisible()
      expect(admin.url()).toBe(`${app.url}/admin`)
      const cookie = (await adminContext.cookies()).find((one) => one.name === 'elicit_admin')
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
      expect(cookie!.value).not.toContain(ADMIN_TOKEN)

      // The waiting call: the tool, its question, the instance, in memory; the person's use; the refused token.
      const waiting = admin.getByRole('listitem', { name: 'book_flight, question pickFlight' })
      await expect(waiting).toContainText('instance-a')
      await expect(waiting).toContainText('hot: an answer resumes it')
      const account = (await waiting.locator('dd').first().innerText()).trim()
      expect(account).toMatch(/^[0-9a-f]{16}$/)
      await expect(admin.getByRole('table', { name: /Model use today/ }).getByRole('row', { name: new RegExp(account) })).toBeVisible()
      const refusals = admin.getByRole('table', { name: 'Refusals in the last hour' })
      await expect(refusals.getByRole('row', { name: /wrong_admin_token/ })).toContainText('1')
      await expect(refusals.getByRole('row', { name: /admin_only/ })).toContainText('2')
      await expectAccessible(admin, 'operator-view')

      // The admin ends it: the list empties; ending it again is refused, it waits no more.
      await admin.setViewportSize({ width: 1280, height: 860 })
      await waiting.getByRole('button', { name: /^End book_flight's question pickFlight/ }).click()
      await expect(admin.getByRole('heading', { name: 'Tool calls waiting for an answer (0)' })).toBeVisible()
      await expect(admin.getByText('No tool call is waiting.')).toBeVisible()
      const callId = await page.getByRole('group', { name: 'Tool call book_flight' }).getAttribute('data-call-id')
      const again = await admin.request.post(`${app.url}/api/admin/waiting-calls/end`, { data: { account, callId: callId ?? 'unknown' } })
      expect(again.status()).toBe(404)
      expect((await again.json()).error.code).toBe('call_not_waiting')
    } finally {
      await adminContext.close()
    }

    // The person's page says at once that an operator ended it (e2e/operator-ends-call.spec.ts follows it closer).
    await expect(booking.root).toContainText('The plugin session was stopped: An operator ended this question.')
    await expect(booking.flightList).toHaveCount(0)
    await page.reload()
    await expect(booking.root).toContainText('An operator ended this question.')
  })
})
