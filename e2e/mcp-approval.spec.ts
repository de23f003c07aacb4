import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { startEverythingHttpServer, type EverythingHttpServer } from '../lib/mcp/client/testing/everything-http-server'
import { ChatPage } from './pages/chat-page'
import { appsFixture, type Apps } from './support/apps-fixture'
import { startApp, type AppProcess } from './support/app-process'

// A host people can trust (issue 23): a tool that may change things waits for the person's
// approval in its card, and several people share one Streamable HTTP server without one's
// abandoned question blocking another's. The production server with real servers from npm:
// the fault server's counters over stdio (bump writes; peek only reads) and server-everything
// over Streamable HTTP.

const FAULT_SERVER = fileURLToPath(new URL('../lib/mcp/client/testing/fault-server.mjs', import.meta.url))

const test = base.extend<{ apps: Apps }>({ apps: appsFixture })
test.describe.configure({ mode: 'serial' })

let everything: EverythingHttpServer
let mcpConfig: string
let app: AppProcess
test.beforeAll(async () => {
  test.setTimeout(90_000)
  everything = await startEverythingHttpServer()
  mcpConfig = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-approval-')), 'mcp.json')
  writeFileSync(
    mcpConfig,
    JSON.stringify({ mcpServers: { faulty: { command: process.execPath, args: [FAULT_SERVER, 'serve'] }, remote: { url: everything.url } } }, null, 2),
  )
  app = await startApp({ env: { MCP_CONFIG: mcpConfig, OFFLINE_MODEL_DELAY_MS: '0' } })
  await toolsListed(app, ['faulty__bump', 'remote__trigger-url-elicitation'])
})
test.afterAll(async () => {
  await app?.kill()
  await everything?.stop()
})
test.use({ baseURL: undefined })

async function toolsListed(on: AppProcess, names: string[]) {
  await expect
    .poll(async () => ((await (await fetch(`${on.url}/api/tools`)).json()) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name), { timeout: 20_000 })
    .toEqual(expect.arrayContaining(names))
}

/** What a counter of the fault server is at, asked by a client of its own (peek only reads: it never asks). */
async function counter(on: AppProcess, key: string): Promise<string> {
  const response = await fetch(`${on.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: '/faulty__peek' }], directToolCall: { name: 'faulty__peek', arguments: { key } } }),
  })
  const result = (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .find((event) => event.type === 'tool_result')
  return JSON.parse(result.content).content[0].text
}

async function open(page: Page, on: AppProcess = app) {
  const chat = new ChatPage(page)
  await page.goto(on.url)
  await expect(chat.composer).toBeEditable()
  return chat
}

const approval = (page: Page) => page.getByRole('region', { name: 'Approve bump on faulty' })

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join('; ')}`)).toEqual([])
}

test('a write tool waits for approval, shown with its server, description and arguments; Allow once runs it once', async ({ page }) => {
  // Many steps (an accessibility scan, two widths, screenshots): 30 s was too tight on a busy 2-core CI machine.
  test.setTimeout(90_000)
  const chat = await open(page)
  await chat.say('Call faulty__bump with {"key": "once", "note": "first line\\nsecond line", "options": {"dryRun": false, "tags": ["a", "b"]}}')
  const card = approval(page)
  await expect(card.getByRole('heading', { name: 'Allow faulty to run bump?' })).toBeVisible()
  await expect(card).toContainText('Adds one to a counter.')
  const args = card.getByRole('region', { name: 'Arguments' })
  await expect(args.getByRole('term')).toHaveText(['key', 'note', 'options', 'dryRun', 'tags'])
  await expect(args.getByRole('definition').first()).toHaveText('once')
  await expect(args.locator('pre')).toHaveText('first line\nsecond line')
  await expect(chat.toolCalls('faulty__bump')).toHaveAttribute('data-status', 'awaiting_input')
  expect(await counter(app, 'once')).toBe('0')
  await expectAccessible(page)
  await card.screenshot({ path: test.info().outputPath('approval.png') })

  // At phone width the card fits, its three choices stacked, the first one on top.
  await page.setViewportSize({ width: 375, height: 800 })
  await card.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('approval-phone.png') })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  const boxes = await Promise.all(['Allow once', 'Allow for this chat', 'Deny'].map((name) => card.getByRole('button', { name }).boundingBox()))
  expect(boxes.map((box) => Math.round(box!.y))).toEqual([...boxes.map((box) => Math.round(box!.y))].sort((a, b) => a - b))
  for (const box of boxes) expect(box!.x + box!.width).toBeLessThanOrEqual(375)
  await page.setViewportSize({ width: 1280, height: 720 })

  await card.getByRole('button', { name: 'Allow once' }).click()
  const result = chat.toolCalls('faulty__bump').getByTestId('external-result')
  await expect(result).toHaveText('1')
  // Answered, the card folds to one line like every other question; opened, it is the card as it was.
  const line = chat.toolCalls('faulty__bump').getByTestId('answer-line')
  await expect(line).toHaveText('bump on faulty Allowed once')
  await expect(card).toHaveCount(0)
  await line.click()
  await expect(line).toHaveAttribute('aria-expanded', 'true')
  await expect(card).toContainText('Allowed once.')
  await expect(card.getByRole('button')).toHaveCount(0)
  await expect(chat.lastAssistantMessage()).toContainText('The faulty__bump tool returned: 1')
  expect(await counter(app, 'once')).toBe('1')
})

test('Deny: the model is told the person denied it, and the turn goes on; nothing reached the server', async ({ page }) => {
  const chat = await open(page)
  await chat.say('Call faulty__bump with {"key": "denied"}')
  await approval(page).getByRole('button', { name: 'Deny' }).click()
  await expect(chat.toolCalls('faulty__bump').getByTestId('answer-line')).toHaveText('bump on faulty Declined')
  await expect(approval(page)).toHaveCount(0)
  await expect(chat.toolCalls('faulty__bump').getByTestId('external-result')).toContainText('The person denied this call: bump on faulty was not run.')
  await expect(chat.lastAssistantMessage()).toContainText('The faulty__bump tool reported an error: The person denied this call')
  await chat.waitUntilIdle()
  expect(await counter(app, 'denied')).toBe('0')
})

test('Allow for this chat: the next calls of that tool in that chat run at once; a new chat asks again', async ({ page }) => {
  const chat = await open(page)
  await chat.say('Call faulty__bump with {"key": "chat"}')
  await approval(page).getByRole('button', { name: 'Allow for this chat' }).click()
  const cards = chat.toolCalls('faulty__bump')
  await expect(cards.first().getByTestId('answer-line')).toHaveText('bump on faulty Allowed for this chat')
  await expect(cards.first().getByTestId('external-result')).toHaveText('1')
  await chat.waitUntilIdle()

  await chat.say('Call faulty__bump with {"key": "chat"}')
  await expect(cards.nth(1).getByTestId('external-result')).toHaveText('2')
  await expect(cards.nth(1).getByRole('region', { name: 'Approve bump on faulty' })).toHaveCount(0)
  await chat.waitUntilIdle()

  await chat.newChat.click()
  await expect(page).toHaveURL(/\/$/)
  await chat.say('Call faulty__bump with {"key": "chat"}')
  await expect(approval(page).getByRole('button', { name: 'Allow once' })).toBeVisible()
  expect(await counter(app, 'chat')).toBe('2')
})

test('a slash command the person typed is their approval', async ({ page }) => {
  const chat = await open(page)
  await chat.say('/faulty__bump {"key":"typed"}')
  await expect(chat.toolCalls('faulty__bump').getByTestId('external-result')).toHaveText('1')
  await expect(approval(page)).toHaveCount(0)
})

test('a waiting approval survives a reload, and is answered once', async ({ page }) => {
  const chat = await open(page)
  await chat.say('Call faulty__bump with {"key": "reload"}')
  await expect(approval(page).getByRole('button', { name: 'Allow once' })).toBeVisible()
  await page.reload()
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(chat.toolCalls('faulty__bump').getByTestId('external-result')).toHaveText('1')
  expect(await counter(app, 'reload')).toBe('1')
})

test('a waiting approval survives a restart of the app (kill -9): answered after it, the call is made then, once', async ({ page, apps }) => {
  test.setTimeout(90_000)
  const env = { MCP_CONFIG: mcpConfig, OFFLINE_MODEL_DELAY_MS: '0', SESSION_SECRET: randomBytes(32).toString('base64url') }
  const first = await apps.start({ env })
  await toolsListed(first, ['faulty__bump'])
  const chat = await open(page, first)
  await chat.say('Call faulty__bump with {"key": "restart"}')
  await expect(approval(page).getByRole('button', { name: 'Allow once' })).toBeVisible()
  await first.kill()

  const second = await apps.start({ env, port: first.port, dataDir: first.dataDir })
  await toolsListed(second, ['faulty__bump'])
  await page.reload()
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(chat.toolCalls('faulty__bump').getByTestId('external-result')).toHaveText('1')
  expect(await counter(second, 'restart')).toBe('1')
})

test('two browsers on one HTTP server at once: one abandons its question, the other is asked and completes', async ({ browser }) => {
  const left = await browser.newContext()
  const leftChat = await open(await left.newPage())
  await leftChat.say('/remote__trigger-url-elicitation {"url":"https://example.com/left-open","message":"Left open."}')
  await expect(leftChat.page.getByRole('region', { name: 'Link from remote' })).toContainText('Left open.')
  // The tab is closed with its question open.
  await left.close()

  const right = await browser.newContext()
  const page = await right.newPage()
  const chat = await open(page)
  await chat.say('/remote__trigger-elicitation-request {}')
  const form = page.getByRole('region', { name: 'Form from remote' })
  await form.getByLabel(/^String \*?$/).fill('Ada Lovelace')
  await form.getByRole('button', { name: 'Accept' }).click()
  await expect(chat.toolCalls('remote__trigger-elicitation-request').getByTestId('external-result')).toContainText('Name: Ada Lovelace')
  await chat.waitUntilIdle()

  await chat.say('/remote__trigger-sampling-request {"prompt":"Suggest a colour","maxTokens":40}')
  await page.getByRole('region', { name: 'Sampling request from remote' }).getByRole('button', { name: 'Approve' }).click()
  await expect(chat.toolCalls('remote__trigger-sampling-request').getByTestId('external-result')).toContainText('LLM sampling result')
  await right.close()
})

test('a server still starting is shown as starting, not down, and as ready when it is, without a reload', async ({ page, apps }) => {
  test.setTimeout(60_000)
  const directory = mkdtempSync(path.join(tmpdir(), 'e2e-starting-'))
  const gate = path.join(directory, 'go')
  const config = path.join(directory, 'mcp.json')
  // It reads nothing, initialize included, until the test writes the gate file.
  writeFileSync(config, JSON.stringify({ mcpServers: { gated: { command: process.execPath, args: [FAULT_SERVER, 'gated', gate] } } }))
  const own = await apps.start({ env: { MCP_CONFIG: config } })
  await open(page, own)
  const starting = page.getByRole('status', { name: 'MCP servers starting' })
  await expect(starting).toHaveText('MCP server gated is starting; its tools will be available when it is ready.')
  await expect(page.getByRole('status', { name: 'MCP servers down' })).toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('starting.png') })

  writeFileSync(gate, '')
  await expect(starting).toBeHidden()
  await expect(page.getByRole('status', { name: 'MCP servers down' })).toHaveCount(0)
  await new ChatPage(page).composer.fill('/gated__pi')
  await expect(page.getByRole('listbox', { name: 'Tools' }).getByRole('option')).toContainText(['/gated__pid'])
})
