import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test, expect, type Browser } from '@playwright/test'
import { startOAuthSseServer, type OAuthSseServer } from '../lib/mcp/client/testing/oauth-sse-server'
import { freePort } from '../lib/testing/server-process'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { signInAtProvider } from './support/sign-in'

// An MCP App of a server each person connects to, in Chromium: an `mcp.json` entry of
// `"type": "sse"` for a legacy server behind OAuth (the v1 SDK's SSEServerTransport, its tokens
// from a real oidc-provider), whose tool `whoami` answers with the token's subject and has an
// App SDK app that calls `whoami` itself once the tool's result is in. Alice connects (the chat's
// Connect, the provider's login and consent pages), runs the tool; the app's own call goes
// through her connection and says so. Bob, not connected, gets no app of that server.

let remote: OAuthSseServer
let app: AppProcess

test.describe.configure({ mode: 'serial', timeout: 90_000 })

test.beforeAll(async () => {
  remote = await startOAuthSseServer()
  const port = await freePort({ host: '127.0.0.1' })
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-personal-apps-')), 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { legacy: { type: 'sse', url: remote.url.href } } }))
  app = await startApp({ port, env: { APP_URL: `http://127.0.0.1:${port}`, MCP_CONFIG: config, OFFLINE_MODEL_DELAY_MS: '0' } })
})

test.afterAll(async () => {
  await app?.kill()
  await remote?.close()
})

async function newPerson(browser: Browser) {
  const context = await browser.newContext({ baseURL: app.url })
  const page = await context.newPage()
  const chat = new ChatPage(page)
  await chat.goto()
  return { context, page, chat }
}

test("alice connects, runs whoami, and its app's own call runs on her connection; bob, not connected, gets no app of that server", async ({ browser }, testInfo) => {
  const alice = await newPerson(browser)
  const bob = await newPerson(browser)
  try {
    const notice = alice.page.getByTestId('server-connect').filter({ hasText: 'legacy' })
    await expect(notice).toContainText('needs you to connect')
    await notice.getByRole('button', { name: 'Connect' }).click()
    await alice.page.waitForURL((url) => url.origin === remote.authServer.issuer)
    await signInAtProvider(alice.page, 'alice')
    await alice.page.waitForURL((url) => url.origin === app.url)
    await expect(notice).toContainText('is connected for you')

    await alice.chat.say('/legacy__whoami {}')
    const card = alice.chat.toolCalls('legacy__whoami')
    await expect(card).toHaveAttribute('data-status', 'completed')
    await expect(card.getByTestId('mcp-app')).toHaveAttribute('data-app-status', 'ready')
    // The app called whoami through the chat (POST /api/mcp-apps/tool-call), which used alice's token.
    await expect(alice.page.frameLocator('[data-testid=mcp-app-frame]').locator('#who')).toHaveText('the app asked: signed in as alice')
    await card.screenshot({ path: testInfo.outputPath('personal-app.png') })

    // Bob has not connected: the server's app is not opened for him, in words the card would show.
    await expect(bob.page.getByTestId('server-connect').filter({ hasText: 'legacy' })).toContainText('needs you to connect')
    const refused = await bob.page.request.post('/api/mcp-apps/frames', { data: { server: 'legacy', tool: 'whoami' }, headers: { 'sec-fetch-site': 'same-origin' } })
    expect(refused.status()).toBe(403)
    expect((await refused.json()).error).toMatchObject({ code: 'not_connected', message: expect.stringContaining('You have not connected "legacy"') })
  } finally {
    await alice.context.close()
    await bob.context.close()
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('server output', { body: app.output(), contentType: 'text/plain' })
  }
})
