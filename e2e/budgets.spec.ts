import { expect, test } from '@playwright/test'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'

/**
 * A spent model budget, as a person sees it: the first answer spends a tiny daily budget
 * (`MODEL_BUDGET_TOKENS_PER_DAY=50`, counted from the offline model's reported usage), the next
 * message is refused before the model is asked, and the chat says calmly when the budget resets
 * — in the person's own time — with their text back in the composer, and no retry.
 */
test.describe('a spent model budget', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  for (const width of [1280, 390]) {
    test(`refuses the next message calmly and keeps its text (${width} px)`, async ({ page }, testInfo) => {
      app = await startApp({ env: { MODEL_BUDGET_TOKENS_PER_DAY: '50', ADMIN_TOKEN: 'an-admin-token-for-this-test-only' } })
      await page.setViewportSize({ width, height: 800 })
      const chat = new ChatPage(page)
      const refusals: number[] = []
      page.on('response', (response) => {
        if (response.url().endsWith('/api/chat') && response.status() === 429) refusals.push(response.status())
      })
      await page.goto(app.url)
      await expect(chat.composer).toBeEditable()

      await chat.say('Hello there')
      await chat.waitUntilIdle()
      await expect(chat.assistantMessages).toHaveCount(1)

      await chat.say('Tell me more')
      const notice = page.getByTestId('budget-notice')
      const resetsAt = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1))
      const local = await page.evaluate((iso) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }), resetsAt.toISOString())
      await expect(notice).toHaveText(`Today's model budget is used up. It resets at ${local} (your local time).`)
      await expect(chat.composer).toHaveValue('Tell me more')
      await expect(chat.userMessages).toHaveCount(1)
      await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0)
      await expect(page.getByTestId('busy-retry')).toHaveText('')
      expect(refusals).toHaveLength(1)
      await page.screenshot({ path: testInfo.outputPath(`budget-spent-${width}.png`) })

      // The admin sees this browser's use, over its limit.
      const usage = await fetch(`${app.url}/api/admin/usage`, { headers: { authorization: 'Bearer an-admin-token-for-this-test-only' } })
      expect(usage.status).toBe(200)
      const { accounts } = (await usage.json()) as { accounts: Array<{ tokens: number; limit: number }> }
      expect(accounts).toHaveLength(1)
      expect(accounts[0]!.limit).toBe(50)
      expect(accounts[0]!.tokens).toBeGreaterThanOrEqual(50)
      // Sending the kept text again is refused again, once: the person chooses, the browser does not retry.
      const again = page.waitForResponse((response) => response.url().endsWith('/api/chat'))
      await chat.composer.press('Enter')
      expect((await again).status()).toBe(429)
      expect(refusals).toHaveLength(2)
      await expect(notice).toBeVisible()
      await expect(chat.composer).toHaveValue('Tell me more')
    })
  }
})
