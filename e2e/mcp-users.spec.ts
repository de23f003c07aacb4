import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { everythingServer, faultServer } from '../lib/mcp/client/testing/servers'
import { startTestOidcProvider, type TestOidcProvider } from '../lib/testing/oidc-provider'
import { freePort } from '../lib/testing/server-process'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { signInAtProvider, signInEnv } from './support/sign-in'

// MCP servers per person (issue 35, item 6): the production server with sign-in through a real
// OpenID Provider (oidc-provider, as in sign-in.spec.ts) and an mcp.json of two stdio servers:
// `everything` (server-everything) without `users`, so for admins only, and `counters` (the
// fault server) whose entry names bob. alice is an admin (AUTH_ADMIN_EMAILS), bob is not.

test.describe.configure({ mode: 'serial' })

let op: TestOidcProvider
let app: AppProcess
test.beforeAll(async () => {
  // A production server, a provider and two MCP servers to start.
  test.setTimeout(90_000)
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  op = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-mcp-users-')), 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingServer(), counters: { ...faultServer('serve'), users: ['bob@example.com'] } } }, null, 2))
  app = await startApp({
    port,
    env: { ...signInEnv(op, appUrl), MCP_CONFIG: config, OFFLINE_MODEL_DELAY_MS: '0' },
  })
})
test.afterAll(async () => {
  await app?.kill()
  await op?.stop()
})

/** `login` signed in on the provider's own pages, back in the chat with the composer ready. */
async function signedIn(browser: Browser, login: string): Promise<{ page: Page; chat: ChatPage; close(): Promise<void> }> {
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 860 } })
  const page = await context.newPage()
  await page.goto('/')
  await signInAtProvider(page, login)
  await expect(page.getByRole('group', { name: 'Your account' })).toContainText(`${login}@example.com`)
  const chat = new ChatPage(page)
  await expect(chat.composer).toBeEditable()
  return { page, chat, close: () => context.close() }
}

type ToolsAnswer = { tools: Array<{ name: string; source: string }>; servers: Array<{ name: string; status: string }> }

async function toolsOf(page: Page): Promise<ToolsAnswer> {
  const response = await page.request.get('/api/tools')
  expect(response.status()).toBe(200)
  return (await response.json()) as ToolsAnswer
}

test('alice, an admin, sees the stdio server without users and runs its tool; she sees the one that names bob too', async ({ browser }) => {
  test.setTimeout(60_000)
  const alice = await signedIn(browser, 'alice')
  await expect.poll(async () => (await toolsOf(alice.page)).servers, { timeout: 30_000 }).toEqual(
    expect.arrayContaining([
      { name: 'everything', status: 'ready' },
      { name: 'counters', status: 'ready' },
    ]),
  )
  const listed = (await toolsOf(alice.page)).tools.map((tool) => tool.name)
  expect(listed).toEqual(expect.arrayContaining(['book_flight', 'everything__echo', 'counters__peek']))

  await alice.page.reload()
  await expect(alice.chat.composer).toBeEditable()
  await expect(alice.page.locator('[data-empty-state]').getByRole('button', { name: 'Tools of everything' })).toBeVisible()
  await alice.chat.composer.fill('/everything__ec')
  await expect(alice.page.getByRole('listbox', { name: 'Tools' }).getByRole('option')).toHaveText([/\/everything__echo/])
  await alice.chat.say('/everything__echo {"message":"from alice"}')
  const card = alice.chat.toolCalls('everything__echo')
  await expect(card.getByTestId('external-result')).toHaveText('Echo: from alice')
  await expect(card).toHaveAttribute('data-status', 'completed')
  await alice.close()
})

test('bob sees none of the admins’ server: not in /api/tools, not in the composer, and a slash command naming it is refused 403; the server that names him is his', async ({ browser }) => {
  test.setTimeout(60_000)
  const bob = await signedIn(browser, 'bob')
  // Both servers are up (the test before waited for it as alice): bob's list has only his.
  const { tools, servers } = await toolsOf(bob.page)
  expect(servers).toEqual([{ name: 'counters', status: 'ready' }])
  expect(tools.filter((tool) => tool.source === 'mcp:everything')).toEqual([])
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['book_flight', 'counters__peek']))

  const empty = bob.page.locator('[data-empty-state]')
  await expect(empty.getByRole('button', { name: 'Tools of counters' })).toBeVisible()
  await expect(empty.getByRole('button', { name: 'Tools of everything' })).toHaveCount(0)
  const suggestions = bob.page.getByRole('listbox', { name: 'Tools' })
  await bob.chat.composer.fill('/counters__pe')
  await expect(suggestions.getByRole('option')).toHaveText([/\/counters__peek/])
  await bob.chat.composer.fill('/everything__')
  await expect(suggestions).toBeHidden()

  // Typed all the same, the server refuses it, and the composer says why.
  const refused = bob.page.waitForResponse((response) => response.url().endsWith('/api/chat') && response.request().method() === 'POST')
  await bob.chat.say('/everything__echo {"message":"from bob"}')
  const response = await refused
  expect(response.status()).toBe(403)
  expect((await response.json()).error).toMatchObject({ code: 'tool_not_allowed', message: expect.stringContaining('"everything__echo" is not yours to use') })
  await expect(bob.page.getByRole('alert').filter({ hasText: 'is not yours to use' })).toBeVisible()
  await expect(bob.chat.toolCalls('everything__echo')).toHaveCount(0)

  // The same request outside the page: 403, whatever the client.
  const direct = await bob.page.request.post('/api/chat', {
    data: { messages: [{ role: 'user', content: '/everything__echo' }], directToolCall: { name: 'everything__echo', arguments: { message: 'again' } } },
  })
  expect(direct.status()).toBe(403)
  expect((await direct.json()).error.code).toBe('tool_not_allowed')
  // Nor through an MCP App of that server: the same refusal.
  const app = await bob.page.request.post('/api/mcp-apps/frames', { data: { server: 'everything', tool: 'echo' }, headers: { 'sec-fetch-site': 'same-origin' } })
  expect(app.status()).toBe(403)
  expect((await app.json()).error.code).toBe('tool_not_allowed')

  // His own server's tool runs.
  await bob.chat.say('/counters__peek {"key":"bob"}')
  const card = bob.chat.toolCalls('counters__peek')
  await expect(card.getByTestId('external-result')).toHaveText('0')
  await expect(card).toHaveAttribute('data-status', 'completed')
  await bob.close()
})
