import { request as httpRequest } from 'node:http'
import { test as base, expect, type Browser } from '@playwright/test'
import { startCluster, type Cluster } from './support/load-balanced-cluster'
import { longChatExport } from './support/long-chat-export'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar } from './pages/chats-sidebar'

// Issue 34, item 6: what a person's browser sends passes through the nginx block of
// docs/deploying.md (support/nginx-process.ts reads it from there; only its listener and
// upstreams are changed, and TLS left out) in front of two production instances started as the
// document says, MCP_ALLOWED_HOSTS=chat.example.com included. The browser reaches nginx by the
// document's name on nginx's own port, not 443: `chat.example.com` resolves to 127.0.0.1 in it.
// Run `npm run build` first.

/** The document's `server_name`, and the name its instances are told to answer to. */
const NAME = 'chat.example.com'
const MiB = 1024 * 1024

const test = base.extend<{ browserAtName: Browser }, { cluster: Cluster; namedBrowser: Browser }>({
  cluster: [
    async ({}, use) => {
      const cluster = await startCluster()
      await use(cluster)
      await cluster.stop()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  namedBrowser: [
    async ({ playwright, launchOptions }, use) => {
      const browser = await playwright.chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${NAME} 127.0.0.1`] })
      await use(browser)
      await browser.close()
    },
    { scope: 'worker' },
  ],
  browserAtName: async ({ cluster, namedBrowser }, use, testInfo) => {
    await use(namedBrowser)
    if (testInfo.status !== testInfo.expectedStatus) await cluster.attachOutputs(testInfo)
  },
})

/** A page of the chat at `http://chat.example.com:<nginx's port>/`, its sidebar's first read answered (the identity cookie is set then). */
async function openChat(browser: Browser, cluster: Cluster) {
  const context = await browser.newContext({ baseURL: `http://${NAME}:${cluster.nginx.port}` })
  const page = await context.newPage()
  const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'GET')
  await new ChatPage(page).goto()
  expect((await listed).status()).toBe(200)
  return { page, context, sidebar: new ChatsSidebar(page) }
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a page', version: '1' } } }

test.describe("docs/deploying.md's nginx block passes what a browser sends", () => {
  // One cluster for both, in one worker: two would compete for the machine.
  test.describe.configure({ mode: 'default', timeout: 120_000 })

  test("a chat export of 10 MiB imports through it, and opens; past the app's bound, the app says why", async ({ cluster, browserAtName }) => {
    const { exported, json } = longChatExport({ title: 'Ten days by train', bytes: 10 * MiB })
    expect(Buffer.byteLength(json)).toBeGreaterThanOrEqual(10 * MiB)
    const { page, context, sidebar } = await openChat(browserAtName, cluster)
    try {
      const imported = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
      await sidebar.importFile.setInputFiles({ name: 'ten-days.json', mimeType: 'application/json', buffer: Buffer.from(json) })
      const answer = await imported
      expect(answer.status(), await answer.text()).toBe(201)
      // The import is a new chat of this browser, opened at its own address, whole.
      await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/)
      const id = new URL(page.url()).pathname.split('/').at(-1)!
      const stored = await page.evaluate(async (id) => {
        const response = await fetch(`/api/chats/${id}`)
        const { chat } = (await response.json()) as { chat: { title: string; turns: unknown[] } }
        return { status: response.status, title: chat.title, turns: chat.turns.length }
      }, id)
      expect(stored).toEqual({ status: 200, title: 'Ten days by train', turns: exported.turns.length })
      await expect(sidebar.entry('Ten days by train')).toHaveAttribute('href', `/c/${id}`)
      await expect(new ChatPage(page).userMessages.last()).toHaveText(exported.turns.at(-1)!.input.text!)

      // Past the app's own bound (2 × CHAT_MAX_BYTES + 64 KiB) and under nginx's, the app refuses
      // it, with a message the page can show, not nginx's HTML page.
      const refused = await page.evaluate(async (bytes) => {
        const body = JSON.stringify({ import: { title: 'Too long', padding: 'x'.repeat(bytes) } })
        const response = await fetch('/api/chats', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        return { status: response.status, body: await response.text() }
      }, 16.5 * MiB)
      expect(refused.status).toBe(413)
      expect(JSON.parse(refused.body)).toEqual({ error: { code: 'body_too_large', message: 'The body is larger than 16.0625 MiB.' } })
    } finally {
      await context.close()
    }
  })

  test("a page on nginx's port (not 443) calls /api/mcp: its Origin names that port, and passes the check", async ({ cluster, browserAtName }) => {
    const { page, context } = await openChat(browserAtName, cluster)
    try {
      const initialized = await page.evaluate(async (body) => {
        const response = await fetch('/api/mcp', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify(body),
        })
        return { status: response.status, body: await response.text() }
      }, INITIALIZE)
      expect(initialized.status, initialized.body).toBe(200)
      expect(initialized.body).toContain('"serverInfo"')
    } finally {
      await context.close()
    }

    // The check is on: a page on another port of the same name is another site, refused.
    const elsewhere = await post(cluster, { host: `${NAME}:${cluster.nginx.port}`, origin: `http://${NAME}:${cluster.nginx.port + 1}` })
    expect(elsewhere.status, elsewhere.body).toBe(403)
    expect(elsewhere.body).toContain('Invalid Origin')
  })
})

/** An MCP initialize sent to nginx with node:http, which lets the test name the Host and Origin headers. */
function post(cluster: Cluster, headers: { host: string; origin: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL('/api/mcp', cluster.url),
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(JSON.stringify(INITIALIZE))
  })
}
