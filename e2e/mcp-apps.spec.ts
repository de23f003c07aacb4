import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { test as base, expect, type Frame, type Page } from '@playwright/test'
import { BAD_APP_SERVER } from '../lib/mcp/apps/testing/bad-app-server-path'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'

// MCP Apps in tool cards, on the production server with an mcp.json that runs the published
// example app server (server-basic-react, stdio) and a server whose apps are broken on purpose.

const require = createRequire(import.meta.url)
const BASIC_REACT = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-basic-react')), 'index.js')

/**
 * One server per worker for these tests (each starts two MCP servers beside it): the tests share
 * nothing else, each with its own browser context. Its output goes with any test that failed.
 */
const test = base.extend<{ serverOutput: void }, { app: AppProcess }>({
  app: [
    async ({}, use, workerInfo) => {
      const config = path.join(workerInfo.project.outputDir, `mcp-apps-${workerInfo.workerIndex}.json`)
      mkdirSync(path.dirname(config), { recursive: true })
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            'basic-react': { command: process.execPath, args: [BASIC_REACT, '--stdio'] },
            'bad-apps': { command: process.execPath, args: [BAD_APP_SERVER] },
          },
        }),
      )
      const app = await startApp({ env: { MCP_CONFIG: config, OFFLINE_MODEL_DELAY_MS: '5' } })
      try {
        // The servers start beside the app: wait until both list their tools.
        await expect
          .poll(
            async () => {
              const { tools } = (await (await fetch(`${app.url}/api/tools`)).json()) as { tools: Array<{ name: string }> }
              return ['basic-react__get-time', 'bad-apps__plain'].filter((name) => tools.some((tool) => tool.name === name))
            },
            { timeout: 30_000 },
          )
          .toHaveLength(2)
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

/** The app's frame as Playwright sees it, once its document is there. */
async function appFrame(page: Page): Promise<Frame> {
  await expect(page.getByTestId('mcp-app-frame')).toBeVisible()
  let frame: Frame | undefined
  await expect.poll(() => (frame = page.frames().find((candidate) => candidate.url().includes('/api/mcp-apps/frame/')))).toBeTruthy()
  return frame!
}

async function openGetTime(page: Page, app: AppProcess) {
  const chat = new ChatPage(page)
  await page.goto(app.url)
  await expect(chat.composer).toBeEditable()
  await chat.say('/basic-react__get-time {}')
  const card = chat.toolCalls('basic-react__get-time')
  await expect(card).toHaveAttribute('data-status', 'completed')
  return { chat, card }
}

test('an MCP App in its tool card: rendered, given the input then the result, calls its server, posts a message, resizes, opens a link after asking', async ({ page, app }, testInfo) => {
  // Many steps (an accessibility scan, two widths, screenshots): 30 s was too tight on a busy 2-core CI machine.
  test.setTimeout(90_000)
  const consoleLines: string[] = []
  page.on('console', (message) => consoleLines.push(message.text()))
  const { chat, card } = await openGetTime(page, app)
  const frame = page.frameLocator('[data-testid=mcp-app-frame]')
  await expect(card.getByTestId('mcp-app')).toHaveAttribute('data-app-status', 'ready')

  // The tool's result reached the app: it shows the same time as the card's own result.
  const resultTime = (await card.getByTestId('tool-result').innerText()).match(/\d{4}-\d\d-\d\dT[\d:.]+Z/)![0]
  await expect(frame.locator('code')).toHaveText(resultTime)
  // The input came first (the app logs each notification as it arrives).
  const input = consoleLines.findIndex((line) => line.startsWith('Received tool call input:'))
  const result = consoleLines.findIndex((line) => line.startsWith('Received tool call result:'))
  expect(input).toBeGreaterThanOrEqual(0)
  expect(result).toBeGreaterThan(input)

  // A tool call from inside the app, to its own server, answered in the app. get-time is not
  // marked read-only, so the person is asked first, in the card, as for a call of the model.
  const time = frame.locator('code')
  const approval = card.getByRole('region', { name: 'Approve get-time on basic-react' })
  const answers = () => consoleLines.filter((line) => line.startsWith('get-time result:')).length
  // The app reports its new height after each answer, the card grows and the chat keeps its end in
  // view: a click sent while that is under way lands where the button was. A person clicks what
  // they see at rest, so each click waits until the last approval has left the card and the frame is as
  // tall as the app's document again.
  const iframe = page.getByTestId('mcp-app-frame')
  const contentFrame = await appFrame(page)
  const clickGetTime = async () => {
    await expect(approval).toHaveCount(0)
    await expect.poll(async () => Math.abs((await iframe.boundingBox())!.height - (await contentFrame.evaluate(() => document.documentElement.getBoundingClientRect().height)))).toBeLessThanOrEqual(2)
    await frame.getByRole('button', { name: 'Get Server Time' }).click()
  }
  await clickGetTime()
  await expect(approval).toContainText('Asked by its app')
  // Brought to the person, who acted above it, with the safe choice focused.
  await expect(approval).toBeInViewport()
  await expect(approval.getByRole('button', { name: 'Deny' })).toBeFocused()
  await card.screenshot({ path: testInfo.outputPath('app-tool-approval.png') })
  await approval.getByRole('button', { name: 'Deny' }).click()
  await expect(time).toHaveText('The person denied this call: get-time was not run.')
  await clickGetTime()
  await approval.getByRole('button', { name: 'Allow once' }).click()
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/)
  await expect(time).not.toHaveText(resultTime)
  await expect(approval).toHaveCount(0)
  // Allowed while the app is open: the next call is not asked about.
  await clickGetTime()
  await approval.getByRole('button', { name: 'Allow while this app is open' }).click()
  await expect.poll(answers).toBe(3)
  await clickGetTime()
  await expect.poll(answers).toBe(4)
  await expect(approval).toHaveCount(0)
  await expect(time).toHaveText(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/)

  // size-changed: the iframe is as tall as the app's document.
  const documentHeight = await contentFrame.evaluate(() => document.documentElement.getBoundingClientRect().height)
  await expect.poll(async () => Math.abs((await iframe.boundingBox())!.height - documentHeight)).toBeLessThanOrEqual(2)
  expect(documentHeight).toBeGreaterThan(300)

  // The README's picture: DOCS_SCREENSHOTS=1 writes it to docs/, otherwise it goes with the report.
  const shot = testInfo.outputPath('mcp-app.png')
  await card.screenshot({ path: shot })
  if (process.env.DOCS_SCREENSHOTS === '1') copyFileSync(shot, 'docs/mcp-app.png')

  // ui/open-link: nothing opens until the user says so.
  const link = `${app.url}/api/health`
  await frame.getByRole('textbox').last().fill(link)
  await frame.getByRole('button', { name: 'Open Link' }).click()
  const ask = card.getByRole('alertdialog', { name: 'Open a link from the app' })
  await expect(ask).toContainText(link)
  const popup = page.context().waitForEvent('page')
  await ask.getByRole('button', { name: 'Open link' }).click()
  expect((await popup).url()).toBe(link)
  await expect(ask).toBeHidden()

  // ui/message: a user message in the chat, answered like one typed. The same request from any
  // other window (here the chat's own) is ignored: it was posted first, yet never shows.
  await page.evaluate(() =>
    window.postMessage({ jsonrpc: '2.0', id: 99, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'forged' }] } }, '*'),
  )
  await frame.getByRole('button', { name: 'Send Message' }).click()
  await expect(chat.userMessages.last()).toHaveText('This is message text.')
  await expect(chat.userMessages.filter({ hasText: 'forged' })).toHaveCount(0)
  await chat.waitUntilIdle()

  // New chat tears the app down before its card goes.
  await chat.newChat.click()
  await expect(page.getByTestId('mcp-app-frame')).toHaveCount(0)
  expect(consoleLines).toContain('App is being torn down')
})

test('the app cannot reach the chat: not its window, its storage, its cookies, its routes', async ({ page, app }) => {
  await openGetTime(page, app)
  await page.evaluate(() => localStorage.setItem('e2e-secret', 'chat-only'))
  const frame = await appFrame(page)
  await expect(page.frameLocator('[data-testid=mcp-app-frame]').getByRole('button', { name: 'Get Server Time' })).toBeVisible()

  const attempts = await frame.evaluate(async () => {
    const attempt = async (read: () => unknown) => {
      try {
        return `read: ${String(await read())}`
      } catch (error) {
        return `refused: ${(error as Error).name}`
      }
    }
    return {
      origin: window.origin,
      top: await attempt(() => window.top!.document.title),
      parent: await attempt(() => window.parent.location.href),
      storage: await attempt(() => localStorage.getItem('e2e-secret')),
      cookie: await attempt(() => document.cookie),
      route: await attempt(async () => (await fetch('/api/health')).status),
    }
  })
  expect(attempts).toEqual({
    origin: 'null',
    top: 'refused: SecurityError',
    parent: 'refused: SecurityError',
    storage: 'refused: SecurityError',
    cookie: 'refused: SecurityError',
    route: 'refused: TypeError',
  })

  // Its headers: a policy of its own (not the API's, not the pages'), and no X-Frame-Options: DENY.
  const headers = (await page.request.get(frame.url())).headers()
  expect(headers['content-security-policy']).toMatch(/^sandbox allow-scripts allow-forms; default-src 'none'; .*connect-src 'none'; .*frame-ancestors 'self'$/)
  expect(headers['x-frame-options']).toBeUndefined()

  // Opened on its own, the frame's document is still sandboxed (the policy is a header).
  const alone = await page.context().newPage()
  await alone.goto(frame.url())
  expect(await alone.evaluate(() => window.origin)).toBe('null')
  await alone.close()
})

test('what an app tells the model (ui/update-model-context) goes with the next chat request', async ({ page, app }) => {
  const chat = new ChatPage(page)
  await page.goto(app.url)
  await expect(chat.composer).toBeEditable()
  await chat.say('/bad-apps__context {"text":"The user picked 12:34."}')
  const card = chat.toolCalls('bad-apps__context')
  await expect(page.frameLocator('[data-testid=mcp-app-frame]').locator('#status')).toHaveText('context sent: The user picked 12:34.')
  const callId = await card.getAttribute('data-call-id')
  await chat.waitUntilIdle()
  const request = page.waitForRequest((candidate) => candidate.url().endsWith('/api/chat') && candidate.method() === 'POST')
  await chat.say('What did I pick?')
  expect((await request).postDataJSON().appContext).toEqual([{ source: `bad-apps__context (${callId})`, text: 'The user picked 12:34.' }])
  await expect(chat.lastAssistantMessage()).not.toBeEmpty()
})

test('a broken app is a clear error in its card, and the chat carries on', async ({ page, app }) => {
  const chat = new ChatPage(page)
  await page.goto(app.url)
  await expect(chat.composer).toBeEditable()
  await chat.say('/bad-apps__wrong-mime {}')
  const card = chat.toolCalls('bad-apps__wrong-mime')
  await expect(card.getByTestId('mcp-app-error')).toContainText('This app cannot be shown. "bad-apps" did not send a usable MCP App for ui://bad/wrong-mime: its type is "text/html", not "text/html;profile=mcp-app".')
  await expect(card).toHaveAttribute('data-status', 'completed')
  await chat.say('/bad-apps__huge {}')
  await expect(chat.toolCalls('bad-apps__huge').getByTestId('mcp-app-error')).toContainText('at most 4 MiB is shown')
  await chat.say('hello')
  await expect(chat.lastAssistantMessage()).not.toBeEmpty()
})

test('the MCP Apps routes answer bad input with 4xx JSON', async ({ request, app }) => {
  const post = (route: string, data: unknown) => request.post(`${app.url}/api/mcp-apps/${route}`, { data, headers: { 'sec-fetch-site': 'same-origin' } })
  const refusal = async (response: Awaited<ReturnType<typeof post>>) => ({ status: response.status(), code: (await response.json()).error.code })
  expect(await refusal(await post('frames', { server: 'basic-react' }))).toEqual({ status: 400, code: 'invalid_request' })
  expect(await refusal(await post('frames', { server: 'basic-react', tool: 'nope' }))).toEqual({ status: 404, code: 'no_app' })
  expect(await refusal(await post('tool-call', { bridgeTicket: 'forged.ticket', name: 'get-time' }))).toEqual({ status: 404, code: 'unknown_frame' })
  expect(await refusal(await request.get(`${app.url}/api/mcp-apps/frame/not-a-ticket`))).toEqual({ status: 404, code: 'unknown_frame' })
  const fromApp = await request.post(`${app.url}/api/mcp-apps/frames`, { data: { server: 'basic-react', tool: 'get-time' }, headers: { origin: 'null' } })
  expect(await refusal(fromApp)).toEqual({ status: 403, code: 'forbidden_origin' })

  // A ticket is the browser's that opened the app: another browser (no cookie) gets nothing.
  const opened = await post('frames', { server: 'basic-react', tool: 'get-time' })
  expect(opened.status()).toBe(200)
  const { src, bridgeTicket } = (await opened.json()) as { src: string; bridgeTicket: string }
  // get-time is not marked read-only: it runs once the page says the person approved it.
  expect(await refusal(await post('tool-call', { bridgeTicket, name: 'get-time' }))).toEqual({ status: 428, code: 'approval_required' })
  const called = await post('tool-call', { bridgeTicket, name: 'get-time', approved: true })
  expect(called.status()).toBe(200)
  expect(await refusal(await post('tool-call', { bridgeTicket, name: 'get-time', approved: 'yes' }))).toEqual({ status: 400, code: 'invalid_request' })
  const stranger = await fetch(`${app.url}/api/mcp-apps/tool-call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bridgeTicket, name: 'get-time', approved: true }),
  })
  expect(stranger.status).toBe(404)
  expect((await fetch(`${app.url}${src}`)).status).toBe(404)
})
