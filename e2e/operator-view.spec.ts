import { hostname } from 'node:os'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import type { OperatorView } from '../lib/protocol/operator-view'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { writeMcpConfig } from './fixtures/mcp-servers'
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

/** Each row of a table's body as the operator reads it: its cells' text. */
function rowsOf(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim())))
}

/** `12:04:05 UTC`, as the view writes a moment. */
function clockOf(iso: string): string {
  return `${new Date(iso).toISOString().slice(11, 19)} UTC`
}

test.describe("the operator's view", () => {
  // Eight axe runs (two screens, each at two widths in light and dark) on a shared 2-core machine.
  test.setTimeout(300_000)

  test('an admin sees the booking question waiting, ends it, and the person’s chat says an operator ended it; others are refused', async ({ apps, page, browser }) => {
    // Kept in memory for 10 min: the check that it is hot does not race the axe runs before it.
    // Two MCP servers: one that answers, one that exits as it starts.
    const app = await apps.start({
      env: { ADMIN_TOKEN, INSTANCE_NAME: 'instance-a', MODEL_BUDGET_TOKENS_PER_DAY: '1000000', PLUGIN_SESSION_HOT_MS: '600000', MCP_CONFIG: writeMcpConfig({ only: ['faulty', 'broken'] }) },
    })

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
      // The MCP servers as mcp.json names them: faulty connected, broken failed with why (it is started again and again, so read again till it is seen failed).
      const servers = admin.getByRole('table', { name: 'External MCP servers' })
      await expect(async () => {
        await admin.getByRole('button', { name: 'Refresh' }).click()
        expect(await rowsOf(servers)).toEqual([
          ['faulty', 'ready'],
          ['broken', 'failed\nit could not be started: Connection closed (the process exited with code 3); its stderr ended with: fault-server: told to exit at once'],
        ])
      }).toPass({ timeout: 20_000 })
      await admin.screenshot({ path: test.info().outputPath('operator-view-as-opened.png'), fullPage: true })
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

  test('a call that waited across a restart is shown cold, waiting since the moment it began; answered after, the booking completes', async ({ apps, page, browser }) => {
    // Two servers to start, one after the other, and a booking to its end.
    test.setTimeout(120_000)
    // No INSTANCE_NAME: the instance is named by its host and port, which a restart keeps.
    const env = { ADMIN_TOKEN }
    const first = await apps.start({ env })
    const instance = `${hostname()}:${first.port}`
    const viewOf = async (url: string) => (await (await fetch(`${url}/api/admin/operator`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as OperatorView

    const chat = new ChatPage(page)
    await page.goto(first.url)
    await expect(chat.composer).toBeEditable()
    const asked = Date.now()
    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await expect(booking.flights.first()).toBeEnabled()
    const shown = Date.now()
    const before = await viewOf(first.url)
    expect(before.waiting).toEqual([expect.objectContaining({ tool: 'book_flight', question: 'pickFlight', instance, hot: true })])
    const { since, callId } = before.waiting[0]!
    // Since it began to wait: after the person asked, before their page showed the question.
    expect(Date.parse(since)).toBeGreaterThanOrEqual(asked)
    expect(Date.parse(since)).toBeLessThanOrEqual(shown)

    // The server is killed (kill -9) and started again: the same port and data, so the same instance.
    await first.kill()
    const second = await apps.start({ env, port: first.port, dataDir: first.dataDir })

    const adminContext = await browser.newContext()
    try {
      expect((await adminContext.request.post(`${second.url}/api/admin/session`, { data: { token: ADMIN_TOKEN } })).status()).toBe(200)
      const admin = await adminContext.newPage()
      await admin.goto(`${second.url}/admin`)
      const waiting = admin.getByRole('listitem', { name: 'book_flight, question pickFlight' })
      await expect(waiting).toContainText('cold: an answer replays its journal')
      await expect(waiting).toContainText(`since ${clockOf(since)}`)
      await expect(waiting).toContainText(instance)
      await admin.screenshot({ path: test.info().outputPath('cold-call.png'), fullPage: true })
      expect((await viewOf(second.url)).waiting).toEqual([expect.objectContaining({ callId, since, instance, hot: false })])

      // The person answers on the page they had open: the tool is replayed, its next question waits, hot now.
      await booking.pickFlight(0)
      await expect(booking.freeSeats.first()).toBeEnabled()
      await admin.getByRole('button', { name: 'Refresh' }).click()
      const seat = admin.getByRole('listitem', { name: 'book_flight, question pickSeat' })
      await expect(seat).toContainText('hot: an answer resumes it')
      const ticket = await booking.expectConfirmed({ seat: await booking.pickFreeSeat() })
      await expect(chat.lastAssistantMessage()).toContainText(ticket)
      await admin.getByRole('button', { name: 'Refresh' }).click()
      await expect(admin.getByRole('heading', { name: 'Tool calls waiting for an answer (0)' })).toBeVisible()
    } finally {
      await adminContext.close()
    }
  })
})
