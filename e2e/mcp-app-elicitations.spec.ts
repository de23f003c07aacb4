import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { ELICITATION_APP_SERVER } from '../lib/mcp/apps/testing/elicitation-app-server-path'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'

// Another MCP server's form question answered inside that server's own MCP App (app-rendered
// elicitations, SEP-3118 draft), on the production server with an mcp.json that runs the
// reference server of lib/mcp/apps/testing (stdio). Its `reserve_table` asks which table and
// for how many; its argument `app` picks a working app or a broken one.

const test = base.extend<{ serverOutput: void }, { app: AppProcess }>({
  app: [
    async ({}, use, workerInfo) => {
      const config = path.join(workerInfo.project.outputDir, `mcp-app-elicitations-${workerInfo.workerIndex}.json`)
      mkdirSync(path.dirname(config), { recursive: true })
      writeFileSync(config, JSON.stringify({ mcpServers: { tables: { command: process.execPath, args: [ELICITATION_APP_SERVER] } } }))
      const app = await startApp({ env: { MCP_CONFIG: config, OFFLINE_MODEL_DELAY_MS: '5' } })
      try {
        await expect
          .poll(
            async () => {
              const { tools } = (await (await fetch(`${app.url}/api/tools`)).json()) as { tools: Array<{ name: string }> }
              return tools.some((tool) => tool.name === 'tables__reserve_table')
            },
            { timeout: 30_000 },
          )
          .toBe(true)
        await use(app)
      } finally {
        await app.kill()
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  serverOutput: [
    async ({ app }, use, testInfo) => {
      await use()
      if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('server output', { body: app.output(), contentType: 'text/plain' })
    },
    { auto: true },
  ],
})

async function reserve(page: Page, app: AppProcess, which?: string) {
  const chat = new ChatPage(page)
  await page.goto(app.url)
  await expect(chat.composer).toBeEditable()
  await chat.say(`/tables__reserve_table ${JSON.stringify(which ? { app: which } : {})}`)
  return { chat, card: chat.toolCalls('tables__reserve_table') }
}

test('the question is answered inside the server’s app: the tool completes, the app is gone, the answer stays once', async ({ page, app }, testInfo) => {
  const lines: string[] = []
  page.on('console', (message) => lines.push(message.text()))
  const { card } = await reserve(page, app)
  const frame = page.frameLocator('[data-testid=question-app-frame]')
  await expect(frame.getByRole('heading', { name: 'Which table would you like tonight?' })).toBeVisible()
  // The app said it answers questions, so the host said it forwards them, in ui/initialize.
  expect(lines.find((line) => line.startsWith('elicitation app: host capabilities'))).toContain('"elicitation":{}')

  // Durable like every question: a reload shows the app again, for the same question.
  await page.reload()
  await expect(frame.getByRole('heading', { name: 'Which table would you like tonight?' })).toBeVisible()
  await frame.getByRole('button', { name: 'T2 · on the terrace · 4 seats' }).click()
  await frame.getByLabel('Guests').fill('4')
  await expect(card.getByTestId('question-app-frame')).toBeVisible()
  const shot = testInfo.outputPath('question-app.png')
  await card.screenshot({ path: shot })
  if (process.env.DOCS_SCREENSHOTS === '1') copyFileSync(shot, 'docs/mcp-question-app.png')

  await frame.getByRole('button', { name: 'Reserve' }).click()
  await expect(card).toHaveAttribute('data-status', 'completed')
  await expect(card.getByTestId('external-result')).toContainText('Reserved T2 for 4 guests.')
  // Torn down before its frame went: nothing of it is left in the card but what it answered.
  await expect(page.getByTestId('question-app-frame')).toHaveCount(0)
  expect(lines).toContain('elicitation app: torn down')
  const answered = card.getByTestId('question-app-answered')
  await expect(answered).toContainText('Answered in the app of tables.')
  await expect(answered).toContainText('T2 · on the terrace · 4 seats')
  await card.screenshot({ path: testInfo.outputPath('question-app-answered.png') })

  // Answered once: after a reload the card shows the answer, and no app opens again.
  await page.reload()
  await expect(card).toHaveAttribute('data-status', 'completed')
  await expect(card.getByTestId('question-app-answered')).toContainText('Guests')
  await expect(page.getByTestId('question-app')).toHaveCount(0)
})

/** The generated form, answered, completes the call; the card says why the app was not used. */
async function answerTheForm(page: Page, card: ReturnType<ChatPage['toolCalls']>, why: RegExp, { timeout }: { timeout?: number } = {}) {
  await expect(card.getByTestId('question-app-fallback')).toHaveText(why, { timeout })
  await expect(page.getByTestId('question-app-frame')).toHaveCount(0)
  const form = card.getByRole('region', { name: 'Form from tables' })
  await form.getByRole('radio', { name: 'T3 · by the bar · 6 seats' }).check()
  await form.getByLabel('Guests').fill('5')
  await form.getByRole('button', { name: 'Accept' }).click()
  await expect(card).toHaveAttribute('data-status', 'completed')
  await expect(card.getByTestId('external-result')).toContainText('Reserved T3 for 5 guests.')
}

test('an app that does not say it answers questions: the form, which completes', async ({ page, app }, testInfo) => {
  const { card } = await reserve(page, app, 'no-elicitation')
  await expect(card.getByRole('region', { name: 'Form from tables' })).toBeVisible()
  await card.screenshot({ path: testInfo.outputPath('question-app-fallback.png') })
  await answerTheForm(page, card, /The app of tables could not be used: it does not say it can answer questions \(no appCapabilities\.elicitation\)\. Answer the form instead\./)
})

test('an app that answers outside the question’s schema: refused outside its sandbox, then the form', async ({ page, app }) => {
  const { card } = await reserve(page, app, 'off-schema')
  const frame = page.frameLocator('[data-testid=question-app-frame]')
  await expect(frame.getByRole('heading', { name: 'Which table would you like tonight?' })).toBeVisible()
  // The app answers table T9 (not offered) for 40 guests (at most 6), whatever is picked.
  await frame.getByRole('button', { name: 'Reserve' }).click()
  await answerTheForm(page, card, /could not be used: its answer does not fit the question \(table: .*; guests: .*\)\. Answer the form instead\./)
})

test('an app that never starts: the form, once it had its time to start', async ({ page, app }) => {
  const { card } = await reserve(page, app, 'silent')
  await expect(page.getByTestId('question-app-frame')).toBeVisible()
  // The chat gives an app 10 s to start (APP_START_TIMEOUT_MS), then shows the form.
  await answerTheForm(page, card, /could not be used: it did not start within 10 s\. Answer the form instead\./, { timeout: 20_000 })
})

test('an app its server cannot read: the form, which completes', async ({ page, app }) => {
  const { card } = await reserve(page, app, 'missing')
  await answerTheForm(page, card, /could not be used: .*ui:\/\/tables\/missing.*Answer the form instead\./)
})

test('the question-frames route answers bad input with 4xx JSON, and opens no app for a question nobody waits on', async ({ request, app }) => {
  const post = (data: unknown, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) =>
    request.post(`${app.url}/api/mcp-apps/question-frames`, { data, headers })
  const refusal = async (response: Awaited<ReturnType<typeof post>>) => ({ status: response.status(), code: (await response.json()).error.code })
  expect(await refusal(await post({ callId: 'call-1' }))).toEqual({ status: 400, code: 'invalid_request' })
  expect(await refusal(await post({ callId: 'call-1', elicitId: 'tables__reserve_table/mcp_form/call-1/1', extra: 1 }))).toEqual({ status: 400, code: 'invalid_request' })
  expect(await refusal(await post({ callId: 'call-1', elicitId: 'tables__reserve_table/mcp_form/call-1/1' }))).toEqual({ status: 404, code: 'unknown_question' })
  expect(await refusal(await post({ callId: 'call-1', elicitId: 'x' }, { origin: 'null' }))).toEqual({ status: 403, code: 'forbidden_origin' })
})
