import { expect, test, type APIResponse } from '@playwright/test'
import { startApp, type AppProcess } from './support/app-process'
import { createChatApi } from './support/chat-api'

// Limits, against a server process of their own: a flood here must not slow the shared server's specs.
test.describe('limits of a production server', () => {
  let app: AppProcess | undefined
  test.afterEach(async () => {
    await app?.kill()
    app = undefined
  })

  test('rate limits key on the TCP peer address: a client-sent X-Forwarded-For is not believed', async ({ request }) => {
    app = await startApp({ env: { RATE_LIMIT_BURST: '20', RATE_LIMIT_PER_SECOND: '0.1' } })
    const post = (headers: Record<string, string> = {}) => request.post(`${app!.url}/api/chat`, { data: {}, headers, failOnStatusCode: false })

    // A dozen requests in a row are never limited.
    for (let index = 0; index < 12; index++) expect((await post()).status()).toBe(400)

    // A flood from this address, each request claiming to come from another one: all count against 127.0.0.1.
    const statuses: number[] = []
    let limited: APIResponse | undefined
    for (let index = 0; index < 40 && !limited; index++) {
      const response = await post({ 'x-forwarded-for': `198.51.100.${index}` })
      statuses.push(response.status())
      if (response.status() === 429) limited = response
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined()
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true)
    expect(Number(limited!.headers()['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(await limited!.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringContaining('your address'), scope: 'address' } })
    // Health is not rate limited.
    expect((await request.get(`${app.url}/api/health`)).status()).toBe(200)
  })

  test('with TRUST_PROXY=1 the proxy’s X-Forwarded-For names the client', async ({ request }) => {
    app = await startApp({ env: { RATE_LIMIT_BURST: '12', RATE_LIMIT_PER_SECOND: '0.01', TRUST_PROXY: '1' } })
    const post = (address: string) =>
      request.post(`${app!.url}/api/chat`, { data: {}, headers: { 'x-forwarded-for': `10.0.0.1, ${address}` }, failOnStatusCode: false })
    for (let index = 0; index < 12; index++) expect((await post('203.0.113.9')).status()).toBe(400)
    expect((await post('203.0.113.9')).status()).toBe(429)
    // Another client behind the same proxy is served.
    expect((await post('203.0.113.10')).status()).toBe(400)
  })

  test('a message that fans out past the per-step cap starts at most the cap’s tools, and the turn completes', async ({ request }) => {
    app = await startApp({ env: { MAX_TOOL_CALLS_PER_STEP: '3' } })
    const chat = createChatApi({ baseURL: app.url, request })
    const stops = ['NYC', 'LAX', 'SFO', 'SEA', 'BOS', 'ORD', 'DEN', 'MIA', 'ATL', 'DFW']
    const turn = await chat.say(`Book a flight from ${stops.join(' to ')}`)
    expect(turn.status).toBe(200)
    expect(turn.events.filter((event) => event.type === 'plugin_elicit_request').length).toBeLessThanOrEqual(3)
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
    const sessions = await (await request.get(`${app.url}/api/sessions`)).json()
    expect(sessions.sessions.length).toBeLessThanOrEqual(3)
  })
})
