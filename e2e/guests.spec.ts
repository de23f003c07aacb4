import { expect, test, type Browser, type Page } from '@playwright/test'
import { startTestOidcProvider, type TestOidcProvider } from '../lib/testing/oidc-provider'
import { freePort } from '../lib/testing/server-process'
import { BookingCard } from '../plugins/book-flight/e2e/booking-card'
import { ChatPage } from './pages/chat-page'
import { ChatsSidebar } from './pages/chats-sidebar'
import { startApp, type AppProcess } from './support/app-process'

// Guests (issue 35, AUTH_GUESTS=on): the production server with sign-in configured against a real
// OpenID Provider (oidc-provider from npm, in this process), where people may also chat without
// signing in, as their browser identity, on a budget of their own — and whose chats become their
// account's when they sign in.

test.describe.configure({ mode: 'serial' })

let op: TestOidcProvider
let app: AppProcess
test.beforeAll(async () => {
  test.setTimeout(90_000)
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  op = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
  app = await startApp({
    port,
    env: {
      APP_URL: appUrl,
      AUTH_OIDC_ISSUER: op.issuer,
      AUTH_OIDC_CLIENT_ID: op.clientId,
      AUTH_OIDC_CLIENT_SECRET: op.clientSecret,
      AUTH_ALLOWED_EMAILS: '@example.com',
      AUTH_ADMIN_EMAILS: 'alice@example.com',
      AUTH_GUESTS: 'on',
      // A guest's first answer spends it; accounts have no budget.
      GUEST_MODEL_BUDGET_TOKENS_PER_DAY: '50',
      OFFLINE_MODEL_DELAY_MS: '0',
    },
  })
})
test.afterAll(async () => {
  await app?.kill()
  await op?.stop()
})

/** Signs `login` in on the provider's own pages (any password), from wherever the app sent the browser. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login)
  await page.getByPlaceholder('and password').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}

async function newGuest(browser: Browser) {
  const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 860 } })
  return { context, page: await context.newPage() }
}

test('says at start that guests may chat', () => {
  expect(app.output()).toContain('guests may chat without signing in (AUTH_GUESTS=on)')
})

test('a guest chats without signing in; their booking waiting at its first question is in the sidebar after they sign in, and still answers', async ({ browser }) => {
  test.setTimeout(90_000)
  const { context, page } = await newGuest(browser)
  await page.goto('/')
  await expect(page).toHaveURL(`${app.url}/`)
  const account = page.getByRole('group', { name: 'Your account' })
  await expect(account).toContainText('Chatting as a guest')
  await expect(page.getByRole('button', { name: 'Continue on another device' })).toHaveCount(0)

  const chat = new ChatPage(page)
  await expect(chat.composer).toBeEditable()
  await chat.say('Book a flight from NYC to LAX')
  await expect(BookingCard.nth(page).flights.first()).toBeEnabled()
  await page.waitForURL(/\/c\/[^/]+$/)
  const chatPath = new URL(page.url()).pathname
  const sidebar = new ChatsSidebar(page)
  await expect(sidebar.entry('Book a flight from NYC to LAX')).toHaveCount(1)

  await account.getByRole('link', { name: 'Sign in' }).click()
  await signInAtProvider(page, 'bob')
  await expect(page).toHaveURL(`${app.url}${chatPath}`)
  await expect(account).toContainText('bob@example.com')
  await expect(sidebar.entry('Book a flight from NYC to LAX')).toHaveCount(1)
  const booking = BookingCard.nth(page)
  await booking.pickFlight(0)
  await expect(booking.freeSeats.first()).toBeEnabled()

  // The chat is the account's now: bob on another device has it, the browser's old identity does not.
  const phone = await newGuest(browser)
  await phone.page.goto('/')
  await phone.page.getByRole('group', { name: 'Your account' }).getByRole('link', { name: 'Sign in' }).click()
  await signInAtProvider(phone.page, 'bob')
  await expect(new ChatsSidebar(phone.page).entry('Book a flight from NYC to LAX')).toHaveCount(1)
  await Promise.all([context.close(), phone.context.close()])
})

test('a guest has the guest budget and no admin page; signed in, the same person chats on', async ({ browser }) => {
  test.setTimeout(90_000)
  const { context, page } = await newGuest(browser)
  await page.goto('/')
  const chat = new ChatPage(page)
  await expect(chat.composer).toBeEditable()
  await chat.say('Hello there')
  await chat.waitUntilIdle()
  await expect(chat.assistantMessages).toHaveCount(1)
  await chat.say('Tell me more')
  await expect(page.getByTestId('budget-notice')).toContainText("Today's model budget is used up.")
  await expect(chat.composer).toHaveValue('Tell me more')
  expect((await page.request.get('/api/admin/usage')).status()).toBe(401)

  await page.getByRole('group', { name: 'Your account' }).getByRole('link', { name: 'Sign in' }).click()
  await signInAtProvider(page, 'alice')
  await expect(page.getByRole('group', { name: 'Your account' })).toContainText('alice@example.com')
  await expect(chat.composer).toBeEditable()
  await chat.say('Tell me more')
  await chat.waitUntilIdle()
  await expect(page.getByTestId('budget-notice')).toHaveCount(0)
  await expect(chat.assistantMessages).toHaveCount(2)
  await context.close()
})
