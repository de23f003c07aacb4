import { expect, test, type APIResponse, type Page } from '@playwright/test'
import { ChatPage } from './pages/chat-page'
import { BookingCard } from '@/plugins/book-flight/e2e/booking-card'
import { PickCardCard } from '@/plugins/pick-card/e2e/pick-card-card'
import { TicTacToeCard } from '@/plugins/tictactoe/e2e/tictactoe-card'
import { startApp, type AppProcess } from './support/app-process'

/** Collects every CSP violation the page reports, from the first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to (load|execute|apply|frame|connect)/i.test(message.text())) consoleErrors.push(message.text())
  })
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`)
    })
  })
  return async () => [...consoleErrors, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))]
}

function expectHardened(response: APIResponse | { headers(): Record<string, string> }, what: string) {
  const headers = response.headers()
  expect(headers['x-content-type-options'], what).toBe('nosniff')
  expect(headers['x-frame-options'], what).toBe('DENY')
  expect(headers['referrer-policy'], what).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/)
}

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0]).map(([name, ...values]) => [name!, values]))
}

test.describe('security headers', () => {
  test('every page, route and static file says nosniff, DENY and a strict referrer policy; pages and the API have a CSP that forbids framing', async ({ page, request }) => {
    const home = await request.get('/')
    const missing = await request.get('/no-such-page')
    expect(missing.status()).toBe(404)
    for (const [what, response] of [['/', home], ['a 404 page', missing]] as const) {
      expectHardened(response, what)
      const policy = directives(response.headers()['content-security-policy'] ?? '')
      expect(policy.get('frame-ancestors'), what).toEqual(["'none'"])
      expect(policy.get('object-src'), what).toEqual(["'none'"])
      const scripts = policy.get('script-src') ?? []
      expect(scripts, what).toContain("'strict-dynamic'")
      expect(scripts.some((value) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(value)), what).toBe(true)
      expect(scripts, what).not.toContain("'unsafe-inline'")
      expect(scripts, what).not.toContain("'unsafe-eval'")
      expect(policy.get('style-src'), what).not.toContain("'unsafe-inline'")
      // Only over HTTPS: on plain http it would send every asset request to https.
      expect(policy.has('upgrade-insecure-requests'), what).toBe(false)
    }
    // A nonce per response, and on every script Next rendered.
    const nonceOf = (response: APIResponse) => /'nonce-([^']+)'/.exec(response.headers()['content-security-policy']!)![1]!
    expect(nonceOf(home)).not.toBe(nonceOf(await request.get('/')))
    const html = await home.text()
    const scriptTags = html.match(/<script\b[^>]*>/g) ?? []
    expect(scriptTags.length).toBeGreaterThan(0)
    for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonceOf(home)}"`)

    const health = await request.get('/api/health')
    const chat = await request.post('/api/chat', { data: { messages: 'not an array' } })
    expect(chat.status()).toBe(400)
    for (const [what, response] of [['/api/health', health], ['a refused /api/chat', chat]] as const) {
      expectHardened(response, what)
      expect(directives(response.headers()['content-security-policy'] ?? '').get('default-src'), what).toEqual(["'none'"])
      expect(directives(response.headers()['content-security-policy'] ?? '').get('frame-ancestors'), what).toEqual(["'none'"])
    }
    const script = /<script\b[^>]*src="([^"]+\.js)"/.exec(html)![1]!
    for (const path of ['/icon.svg', script]) {
      const response = await request.get(path)
      expect(response.status(), path).toBe(200)
      expectHardened(response, path)
    }

    // Framed by another origin: the browser refuses to show it.
    await page.setContent(`<iframe title="framed chat" src="${new URL('/', home.url()).href}"></iframe>`)
    const frame = page.frame({ url: /^http:\/\/127\.0\.0\.1/ })
    await expect.poll(async () => (frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '')).not.toContain('Elicit')
    await expect(page.frameLocator('iframe').getByRole('textbox', { name: 'Message' })).toHaveCount(0)
  })

  test('a booking, a game of tic-tac-toe and a card pick run without one CSP violation', async ({ page }) => {
    const violations = await watchViolations(page)
    const chat = new ChatPage(page)
    await chat.goto()

    await chat.say('Book a flight from NYC to LAX')
    const booking = BookingCard.nth(page)
    await booking.pickFlight(0)
    const seat = await booking.pickFreeSeat()
    await booking.expectConfirmed({ seat })
    await chat.waitUntilIdle()

    await chat.say("Let's play tic-tac-toe")
    const game = TicTacToeCard.nth(page)
    await game.play(1)
    await expect(game.lastModelMove).toHaveAccessibleName('Cell 5, O, last move')
    await game.resign.click()
    await expect(game.board).toHaveCount(0)
    await chat.waitUntilIdle()

    await chat.say('Pick a card')
    const cards = PickCardCard.nth(page)
    await cards.card(2).click()
    await expect(cards.result).toBeVisible()
    await chat.waitUntilIdle()

    // A reload restores everything from storage, rendered on the client.
    await page.reload()
    await expect(chat.composer).toBeEditable()
    await expect(BookingCard.all(page)).toHaveCount(1)
    expect(await violations()).toEqual([])
  })
})

test.describe('the identity cookie behind a proxy', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  test('plain chat_client_id on http; X-Forwarded-Proto is ignored unless TRUST_PROXY=1', async ({ request }) => {
    const body = { messages: [{ role: 'user', content: 'Hello' }] }
    const plain = await request.post('/api/chat', { data: body, headers: { 'x-forwarded-proto': 'https' } })
    expect(plain.headers()['set-cookie']).toMatch(/^chat_client_id=[\w-]{32,}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
  })

  test('TRUST_PROXY=1 behind HTTPS: __Host-chat_client_id, Secure, accepted back; an unsigned one is replaced', async () => {
    app = await startApp({ env: { TRUST_PROXY: '1' } })
    // Plain fetch: no cookie jar, every request sends exactly the cookie given.
    const post = (headers: Record<string, string>) =>
      fetch(`${app!.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }] }),
      })
    const https = { 'x-forwarded-proto': 'https' }
    const first = await post(https)
    expect(first.status).toBe(200)
    const setCookie = first.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^__Host-chat_client_id=[\w-]{32,}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/)
    const cookie = setCookie.split(';')[0]!
    expect((await post({ ...https, cookie })).headers.get('set-cookie')).toBeNull()
    const forged = await post({ ...https, cookie: '__Host-chat_client_id=admin' })
    expect(forged.headers.get('set-cookie')).toMatch(/^__Host-chat_client_id=(?!admin)[\w-]{32,}\.[\w-]{43};/)
    // The proxy says http: the plain cookie, without Secure.
    expect((await post({ 'x-forwarded-proto': 'http' })).headers.get('set-cookie')).toMatch(/^chat_client_id=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
    // And the pages ask the browser to upgrade what they load.
    const page = await fetch(`${app.url}/`, { headers: https })
    expect(page.headers.get('content-security-policy')).toContain('upgrade-insecure-requests')
  })
})
