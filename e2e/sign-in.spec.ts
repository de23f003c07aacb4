import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { OperatorView } from '../lib/protocol/operator-view'
import { startTestOidcProvider, type TestOidcProvider } from '../lib/testing/oidc-provider'
import { freePort } from '../lib/testing/server-process'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar } from './pages/chats-sidebar'
import { startApp, type AppProcess } from './support/app-process'
import { signInAtProvider, signInEnv as signInEnvOf } from './support/sign-in'

// Sign-in (issue 35): the production server configured with a real OpenID Provider
// (oidc-provider from npm, in this process on a free port), signed into through the provider's
// own login and consent pages in Chromium. alice and bob are allowed (alice is an admin), carol
// (another company) is not.

test.describe.configure({ mode: 'serial' })

let op: TestOidcProvider
let app: AppProcess
let signInEnv: Record<string, string>
test.beforeAll(async () => {
  test.setTimeout(90_000)
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  op = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
  signInEnv = signInEnvOf(op, appUrl)
  app = await startApp({ port, env: { ...signInEnv, OFFLINE_MODEL_DELAY_MS: '0' } })
})
test.afterAll(async () => {
  await app?.kill()
  await op?.stop()
})

async function newPerson(browser: Browser, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ baseURL: app.url, viewport })
  return { context, page: await context.newPage() }
}

async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect.soft(serious, `axe on ${screen}`).toEqual([])
}

test('prints the redirect URI to register at start', () => {
  expect(app.output()).toContain(`register the redirect URI ${app.url}/auth/callback at the provider`)
})

test('every API answers an unsigned request 401 sign_in_required, and /api/mcp is closed without MCP_AUTH_TOKEN', async ({ request }) => {
  for (const [method, path] of [
    ['POST', '/api/chat'],
    ['GET', '/api/chats'],
    ['GET', '/api/tools'],
    ['GET', '/api/devices'],
    ['POST', '/api/mcp-apps/frames'],
    ['POST', '/api/mcp-apps/tool-call'],
  ] as const) {
    const response = await request.fetch(`${app.url}${path}`, { method, data: method === 'POST' ? {} : undefined, headers: { 'sec-fetch-site': 'same-origin' } })
    expect(response.status(), `${method} ${path}`).toBe(401)
    expect((await response.json()).error.code, `${method} ${path}`).toBe('sign_in_required')
  }
  const mcp = await request.post(`${app.url}/api/mcp`, { data: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } })
  expect(mcp.status()).toBe(401)
  expect(await mcp.text()).toContain('MCP_AUTH_TOKEN')
})

test('alice signs in and back to where she was; on her phone she sees the same chat and answers the question waiting there; bob sees none of it; alice, an admin, sees it waiting at /admin and ends it, bob is refused', async ({ browser }) => {
  test.setTimeout(150_000)
  const laptop = await newPerson(browser)
  await laptop.page.goto('/?from=bookmark')
  await expect(laptop.page).toHaveURL(new RegExp(`^${op.issuer}/`))
  await signInAtProvider(laptop.page, 'alice')
  await expect(laptop.page).toHaveURL(`${app.url}/?from=bookmark`)
  const account = laptop.page.getByRole('group', { name: 'Your account' })
  await expect(account).toContainText('Alice Example')
  await expect(account).toContainText('alice@example.com')
  await expect(laptop.page.getByRole('button', { name: 'Continue on another device' })).toHaveCount(0)

  const chat = new ChatPage(laptop.page)
  await expect(chat.composer).toBeEditable()
  await chat.say('Book a flight from NYC to LAX')
  const booking = BookingCard.nth(laptop.page)
  await expect(booking.flights.first()).toBeEnabled()
  await laptop.page.waitForURL(/\/c\/[^/]+$/)
  const chatPath = new URL(laptop.page.url()).pathname

  const phone = await newPerson(browser, { width: 390, height: 844 })
  await phone.page.goto(chatPath)
  await signInAtProvider(phone.page, 'alice')
  await expect(phone.page).toHaveURL(`${app.url}${chatPath}`)
  const onPhone = BookingCard.nth(phone.page)
  await expect(onPhone.flights.first()).toBeEnabled()
  await onPhone.pickFlight(0)
  await expect(onPhone.freeSeats.first()).toBeEnabled()

  const bob = await newPerson(browser)
  await bob.page.goto('/')
  await signInAtProvider(bob.page, 'bob')
  await expect(bob.page.getByRole('group', { name: 'Your account' })).toContainText('bob@example.com')
  await expect(new ChatsSidebar(bob.page).entries).toHaveCount(0)
  const theirs = await bob.page.request.get(`/api/chats/${chatPath.split('/').pop()}`)
  expect(theirs.status()).toBe(404)
  // Each account's model use is for admins: alice is one (AUTH_ADMIN_EMAILS), bob is not.
  const forAlice = await laptop.page.request.get('/api/admin/usage')
  expect(forAlice.status()).toBe(200)
  expect(await forAlice.json()).toMatchObject({ accounts: expect.any(Array) })
  const forBob = await bob.page.request.get('/api/admin/usage')
  expect(forBob.status()).toBe(401)
  expect((await forBob.json()).error.code).toBe('admin_only')
  // The operator's view likewise (no ADMIN_TOKEN here: only the sign-in's admins). Alice, named in
  // AUTH_ADMIN_EMAILS, sees her booking waiting on its seat, and its API answers her.
  await laptop.page.goto('/admin')
  await expect(laptop.page.getByRole('heading', { name: 'Operator’s view' })).toBeVisible()
  await expect(laptop.page.getByRole('heading', { name: 'Tool calls waiting for an answer (1)' })).toBeVisible()
  const waiting = laptop.page.getByRole('listitem', { name: 'book_flight, question pickSeat' })
  await expect(waiting).toContainText('hot: an answer resumes it')
  const asAlice = await laptop.page.request.get('/api/admin/operator')
  expect(asAlice.status()).toBe(200)
  const { waiting: calls } = (await asAlice.json()) as OperatorView
  expect(calls).toEqual([expect.objectContaining({ tool: 'book_flight', question: 'pickSeat', hot: true })])
  const { account: hashed, callId } = calls[0]!
  await expect(waiting).toContainText(hashed)
  // Bob, signed in but no admin, is told the page is for admins, and the API refuses him with the contract's admin_only: to read, and to end her call.
  await bob.page.goto('/admin')
  await expect(bob.page.getByText('This page is for admins: sign in as one (AUTH_ADMIN_EMAILS, AUTH_ADMIN_GROUPS). No ADMIN_TOKEN is configured.')).toBeVisible()
  await expect(bob.page.getByRole('heading', { name: /Tool calls waiting/ })).toHaveCount(0)
  await expect(bob.page.getByRole('button', { name: /^End / })).toHaveCount(0)
  for (const refused of [
    await bob.page.request.get('/api/admin/operator'),
    await bob.page.request.post('/api/admin/waiting-calls/end', { data: { account: hashed, callId }, headers: { 'sec-fetch-site': 'same-origin' } }),
  ]) {
    expect(refused.status()).toBe(401)
    expect((await refused.json()).error).toEqual({ code: 'admin_only', message: expect.stringContaining('This is for admins') })
  }
  // Alice ends it from the view: the list empties, and her phone, where the seat map was, says an operator ended it.
  await waiting.getByRole('button', { name: /^End book_flight's question pickSeat/ }).click()
  await expect(laptop.page.getByRole('heading', { name: 'Tool calls waiting for an answer (0)' })).toBeVisible()
  await expect(onPhone.root).toContainText('The plugin session was stopped: An operator ended this question.')
  await expect(onPhone.freeSeats).toHaveCount(0)
  await Promise.all([laptop.context.close(), phone.context.close(), bob.context.close()])
})

test('carol, whom the provider knows and the allow-list does not, sees a clear page and reaches nothing else', async ({ browser }) => {
  const carol = await newPerson(browser)
  await carol.page.goto('/')
  await signInAtProvider(carol.page, 'carol')
  await expect(carol.page).toHaveURL(`${app.url}/auth/not-allowed`)
  await expect(carol.page.getByText('carol@other.org is not allowed here.')).toBeVisible()
  expect((await carol.page.request.get('/api/chats')).status()).toBe(401)
  await carol.context.close()
})

test('sign-out on one instance ends the session on the other: the chats refuse the old cookie there, and the pages ask to sign in again', async ({ browser }) => {
  test.setTimeout(90_000)
  // A second instance of the same deployment: the same DATA_DIR (so the same store and secret), the same sign-in.
  const other = await startApp({ dataDir: app.dataDir, env: { ...signInEnv, OFFLINE_MODEL_DELAY_MS: '0' } })
  try {
    const { context, page } = await newPerson(browser)
    await page.goto('/')
    await signInAtProvider(page, 'bob')
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'chat_session')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    const onOther = () => fetch(`${other.url}/api/chats`, { headers: { cookie: `${cookie.name}=${cookie.value}` } })
    expect((await onOther()).status).toBe(200)
    // No mcp.json server asks each person to connect here: signing out has nothing to keep, so no choice.
    const signOutForm = page.getByRole('form', { name: 'Sign out' })
    await expect(signOutForm.getByRole('button', { name: 'Sign out' })).toBeVisible()
    await expect(signOutForm.getByRole('checkbox')).toHaveCount(0)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(`${app.url}/auth/signed-out`)
    await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible()
    const refused = await onOther()
    expect(refused.status).toBe(401)
    expect((await refused.json()).error.code).toBe('sign_in_required')
    // The pages send the browser to the provider again; its own session there signs bob in anew, with a new session of ours.
    const toProvider = page.waitForRequest((request) => request.url().startsWith(`${op.issuer}/`))
    await page.goto('/')
    await toProvider
    await expect(page.getByRole('group', { name: 'Your account' })).toContainText('bob@example.com')
    const renewed = (await context.cookies()).find((candidate) => candidate.name === 'chat_session')!
    expect(renewed.value).not.toBe(cookie.value)
    await context.close()
  } finally {
    await other.kill()
  }
})

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 1280, height: 860 },
    { width: 390, height: 844 },
  ]) {
    test(`the account in the sidebar and the sign-in's own pages are accessible, ${colorScheme}, ${viewport.width} px`, async ({ browser }) => {
      const context = await browser.newContext({ baseURL: app.url, viewport, colorScheme, reducedMotion: 'reduce' })
      const page = await context.newPage()
      await page.goto('/')
      await signInAtProvider(page, 'alice')
      // Hydrated: the drawer's button answers clicks only then.
      await expect(page.getByTestId('chat')).toHaveAttribute('data-ready', 'true')
      if (viewport.width < 640) await page.getByRole('button', { name: 'Chats', exact: true }).click()
      await expect(page.getByRole('group', { name: 'Your account' })).toBeVisible()
      await expectAccessible(page, 'the chat with the account in the sidebar')
      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible()
      await expectAccessible(page, 'the signed-out page')
      await page.goto('/auth/problem?reason=unreachable')
      await expectAccessible(page, 'the problem page')
      await page.goto('/auth/not-allowed')
      await expectAccessible(page, 'the not-allowed page')
      await context.close()
    })
  }
}
