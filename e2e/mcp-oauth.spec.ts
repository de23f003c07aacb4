import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { startTestOidcProvider, type TestOidcProvider } from '../lib/testing/oidc-provider'
import { freePort } from '../lib/testing/server-process'
import { ChatPage } from './pages/chat-page'
import { startApp, type AppProcess } from './support/app-process'
import { startProtectedRemote, type ProtectedRemote } from './support/protected-remote'
import { signInAtProvider, signInEnv } from './support/sign-in'

// MCP authorization, the chat as an OAuth client (issue 36): a real authorization server
// (oidc-provider) in front of a second production instance of this app, whose /api/mcp takes
// only its tokens (MCP_AUTH_ISSUER, APP_URL); the chat under test, with sign-in through a real
// OpenID Provider of its own, has an mcp.json entry for that /api/mcp. Each person connects on
// their own, through the authorization server's own login and consent pages in Chromium.

test.describe.configure({ mode: 'serial' })

let op: TestOidcProvider
let remote: ProtectedRemote
let chat: AppProcess
let chatEnv: Record<string, string>
test.beforeAll(async () => {
  // Two production servers and two providers to start.
  test.setTimeout(120_000)
  remote = await startProtectedRemote()
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  op = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-mcp-oauth-')), 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { remote: { url: remote.mcpUrl } } }, null, 2))
  chatEnv = { ...signInEnv(op, appUrl), MCP_CONFIG: config, OFFLINE_MODEL_DELAY_MS: '0' }
  chat = await startApp({ port, env: chatEnv })
})
test.afterAll(async () => {
  await chat?.kill()
  await remote?.close()
  await op?.stop()
})

interface Person {
  context: BrowserContext
  page: Page
  chat: ChatPage
  /** The bodies of every response the page was sent (read once the test is done with the page). */
  responses: Array<Promise<string>>
}

/** `login` signed in to the chat on the sign-in provider's own pages, the composer ready. */
async function signedIn(browser: Browser, login: string): Promise<Person> {
  const context = await browser.newContext({ baseURL: chat.url, viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const responses: Array<Promise<string>> = []
  page.on('response', (response) => responses.push(response.text().catch(() => '')))
  await page.goto('/')
  await signInAtProvider(page, login)
  await expect(page.getByRole('group', { name: 'Your account' })).toContainText(`${login}@example.com`)
  const person = { context, page, chat: new ChatPage(page), responses }
  await expect(person.chat.composer).toBeEditable()
  return person
}

const serverLine = (page: Page) => page.getByRole('status', { name: 'MCP servers to connect' }).getByTestId('server-connect')

/**
 * Connects through the authorization server's own pages — its login as `login`, and its consent;
 * the consent alone (`login` undefined) where this browser is still signed in there — and is back
 * in the chat, connected.
 */
async function connectAt(page: Page, start: () => Promise<void>, login: string | undefined) {
  await start()
  await expect(page).toHaveURL(new RegExp(`^${remote.authServer.issuer}/`))
  if (login) await signInAtProvider(page, login)
  else await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/[?&]mcp_connected=remote\b/)
  await expect(serverLine(page)).toContainText('MCP server remote is connected for you.')
}

/** Answers the remote's booking in its card: its flight and its seat in the remote's own app, each the first one offered, then its sampling request. */
async function answerBooking(card: Locator) {
  // The remote's questions show in its own MCP App, read through the asking person's connection.
  const flights = card.locator('iframe').last().contentFrame()
  await answerWith(flights.getByRole('button', { name: /\$\d+$/ }).first())
  const seats = card.locator('iframe').last().contentFrame()
  await seats.getByRole('button', { name: /^Seat \d+[A-F]$/, disabled: false }).first().click()
  await answerWith(seats.getByRole('button', { name: 'Confirm' }))
  await card.getByRole('region', { name: 'Sampling request from remote' }).getByRole('button', { name: 'Approve' }).click()
}

/**
 * Clicks a button that answers the app's question, once it can be clicked. The answer takes the
 * app's frame away, and Chromium may never acknowledge a mouse click whose frame is gone by then
 * (a fresh-clone run waited 120 s on one whose answer had arrived): the click is the button's own
 * DOM click in its frame, which returns once its handler ran.
 */
async function answerWith(button: Locator) {
  await expect(button).toBeEnabled()
  await button.dispatchEvent('click')
}

/** No access token the remote was ever shown is anywhere the browser keeps or was sent; no token field either. */
async function expectNoTokenIn(person: Person) {
  const tokens = remote.accessTokens()
  expect(tokens.length).toBeGreaterThan(0)
  const seen = [
    await person.page.content(),
    ...(await Promise.all(person.responses)),
    JSON.stringify(await person.context.cookies()),
    await person.page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
  ]
  for (const text of seen) {
    for (const token of tokens) expect(text.includes(token), 'an access token reached the browser').toBe(false)
    expect(text).not.toMatch(/"(access|refresh)_token"/)
  }
}

test('alice sees the remote as needing her to connect, connects on its own pages, books a flight through its tools, disconnects and reconnects; bob still sees it unconnected; no token reaches the browser', async ({ browser }) => {
  test.setTimeout(120_000)
  const alice = await signedIn(browser, 'alice')
  const line = serverLine(alice.page)
  await expect(line).toContainText('MCP server remote needs you to connect; its tools are unavailable until you do.')

  await connectAt(alice.page, () => line.getByRole('button', { name: 'Connect', exact: true }).click(), 'alice')

  // Bob, signed in elsewhere, has not connected: the remote is still his to connect.
  const bob = await signedIn(browser, 'bob')
  await expect(serverLine(bob.page)).toContainText('MCP server remote needs you to connect')
  await expect(serverLine(bob.page).getByRole('button', { name: 'Connect', exact: true })).toBeVisible()
  await bob.context.close()

  // The model calls the remote's tool (alice approves the call), and the remote's questions are answered in the chat.
  await alice.chat.say('Call remote__book_flight with {"from": "BOS", "destination": "SEA"}')
  await alice.page.getByRole('region', { name: 'Approve book_flight on remote' }).getByRole('button', { name: 'Allow once' }).click()
  const card = alice.chat.toolCalls('remote__book_flight')
  await answerBooking(card)
  await expect(card.getByTestId('external-result')).toContainText(/TKT-/)
  await expect(card).toHaveAttribute('data-status', 'completed')
  await alice.chat.waitUntilIdle()
  expect(remote.callsOf('book_flight')).toBe(1)

  // Disconnect: the token is forgotten (revoked at the authorization server); a call afterwards asks her to connect first.
  const revoked = remote.authServer.revokedGrants()
  await line.getByRole('button', { name: 'Disconnect' }).click()
  await expect(line).toContainText('MCP server remote needs you to connect')
  expect(remote.authServer.revokedGrants()).toBe(revoked + 1)
  await alice.chat.say('/remote__book_flight {"from": "BOS", "destination": "SEA"}')
  const question = alice.page.getByRole('region', { name: 'Connect remote' })
  await expect(question).toContainText('Connect remote to go on')
  await question.getByRole('button', { name: 'Decline' }).click()
  await expect(alice.chat.toolCalls('remote__book_flight').last().getByTestId('external-result')).toContainText('The person did not connect remote, which book_flight needs; book_flight was not called.')
  await alice.chat.waitUntilIdle()
  expect(remote.callsOf('book_flight')).toBe(1)

  // Reconnect (still signed in at the authorization server: its consent only), and the remote's tools are hers again.
  await connectAt(alice.page, () => serverLine(alice.page).getByRole('button', { name: 'Connect', exact: true }).click(), undefined)
  await alice.chat.say('/remote__book_flight {"from": "BOS", "destination": "SEA"}')
  const third = alice.chat.toolCalls('remote__book_flight').last()
  await answerBooking(third)
  await expect(third.getByTestId('external-result')).toContainText(/TKT-/)
  await alice.chat.waitUntilIdle()
  expect(remote.callsOf('book_flight')).toBe(2)
  await expectNoTokenIn(alice)
  await alice.context.close()
})

test('"Connect remote to go on" waits through a reload and a restart of the chat; once connected, Go on runs the call once', async ({ browser }) => {
  test.setTimeout(150_000)
  const bob = await signedIn(browser, 'bob')
  // bob has never connected: his typed call waits in its card.
  await bob.chat.say('/remote__book_flight {"from": "NYC", "destination": "LAX"}')
  const question = bob.page.getByRole('region', { name: 'Connect remote' })
  await expect(question).toContainText('Connect remote to go on')
  const card = bob.chat.toolCalls('remote__book_flight')
  await expect(card).toHaveAttribute('data-status', 'awaiting_input')
  const before = remote.callsOf('book_flight')

  await bob.page.reload()
  await expect(question).toContainText('Connect remote to go on')

  // The chat's server killed outright and started again on the same store.
  await chat.kill()
  chat = await startApp({ port: chat.port, dataDir: chat.dataDir, env: chatEnv })
  await bob.page.reload()
  await expect(question).toContainText('Connect remote to go on')
  expect(remote.callsOf('book_flight')).toBe(before)

  await connectAt(bob.page, () => question.getByRole('button', { name: 'Connect remote' }).click(), 'bob')
  await expect(question).toContainText('Connect remote to go on')
  await question.getByRole('button', { name: 'Go on' }).click()
  await answerBooking(card)
  await expect(card.getByTestId('external-result')).toContainText(/TKT-/)
  await bob.chat.waitUntilIdle()
  expect(remote.callsOf('book_flight')).toBe(before + 1)
  await expectNoTokenIn(bob)
  await bob.context.close()
})

/** Signs out from the sidebar, the box "Keep my MCP servers connected" ticked or not; the browser, done with, is closed. */
async function signOut(person: Person, { keep }: { keep: boolean }) {
  const account = person.page.getByRole('group', { name: 'Your account' })
  const box = account.getByRole('checkbox', { name: 'Keep my MCP servers connected for next time (otherwise signing out disconnects them)' })
  await expect(box).not.toBeChecked()
  if (keep) await box.check()
  await account.getByRole('button', { name: 'Sign out' }).click()
  await expect(person.page).toHaveURL(`${chat.url}/auth/signed-out`)
  await person.context.close()
}

test('signing out disconnects the remote (its grant revoked) unless the person ticks "Keep my MCP servers connected for next time"', async ({ browser }) => {
  test.setTimeout(120_000)
  const alice = await signedIn(browser, 'alice')
  // From a known start whatever ran before: not connected, then connected on the authorization server's pages.
  expect((await alice.page.request.post('/api/mcp-oauth/disconnect', { data: { server: 'remote' }, headers: { 'sec-fetch-site': 'same-origin' } })).status()).toBe(200)
  await alice.page.reload()
  await connectAt(alice.page, () => serverLine(alice.page).getByRole('button', { name: 'Connect', exact: true }).click(), 'alice')

  const revoked = remote.authServer.revokedGrants()
  await signOut(alice, { keep: true })
  const again = await signedIn(browser, 'alice')
  await expect(serverLine(again.page)).toContainText('MCP server remote is connected for you.')
  expect(remote.authServer.revokedGrants()).toBe(revoked)

  // Not kept (the default): her grant revoked at the authorization server; signed in again, the remote needs her to connect.
  await signOut(again, { keep: false })
  expect(remote.authServer.revokedGrants()).toBe(revoked + 1)
  const third = await signedIn(browser, 'alice')
  await expect(serverLine(third.page)).toContainText('MCP server remote needs you to connect')
  await third.context.close()
})
