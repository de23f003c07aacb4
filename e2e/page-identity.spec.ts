import { expect, test } from '@playwright/test'

// A page brings the browser's identity cookie with its HTML (lib/http/page-identity.ts), so that
// the page's first requests, sent side by side, all carry the same identity.

const cookieOf = (setCookie: string | undefined) => /chat_client_id=([^;]+)/.exec(setCookie ?? '')?.[1]

test('a first visit gets its identity with the page, and every request of the page then shares it', async ({ playwright, baseURL }) => {
  const browserless = await playwright.request.newContext({ baseURL })
  try {
    const page = await browserless.get('/')
    expect(page.status()).toBe(200)
    const identity = cookieOf(page.headers()['set-cookie'])
    expect(identity).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)

    // Side by side, as the page's first requests go: one identity, no new cookie, and the chat made by one is listed by the other.
    const [created, listed] = await Promise.all([browserless.post('/api/chats', { data: {} }), browserless.get('/api/chats')])
    expect(created.status()).toBe(201)
    expect(listed.status()).toBe(200)
    expect(cookieOf(created.headers()['set-cookie'])).toBeUndefined()
    expect(cookieOf(listed.headers()['set-cookie'])).toBeUndefined()
    const { chat } = (await created.json()) as { chat: { id: string } }
    const { chats } = (await (await browserless.get('/api/chats')).json()) as { chats: Array<{ id: string }> }
    expect(chats.map((each) => each.id)).toContain(chat.id)

    // Later pages keep it: no new cookie.
    expect(cookieOf((await browserless.get(`/c/${chat.id}`)).headers()['set-cookie'])).toBeUndefined()
  } finally {
    await browserless.dispose()
  }
})

test('a forged identity cookie on a page is replaced with a new identity, as the API would', async ({ playwright, baseURL }) => {
  const browserless = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: 'chat_client_id=forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } })
  try {
    const replaced = cookieOf((await browserless.get('/')).headers()['set-cookie'])
    expect(replaced).toBeDefined()
    expect(replaced).not.toContain('forged')
  } finally {
    await browserless.dispose()
  }
})
