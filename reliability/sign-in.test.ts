import { afterEach, describe, expect, it } from 'vitest'
import { signInOverHttp } from '../lib/auth/testing/provider-login'
import { startTestOidcProvider, type TestOidcProvider } from '../lib/testing/oidc-provider'
import { freePort } from '../lib/testing/server-process'
import { processesPerTest } from './support/processes'

/**
 * Sign-in (issue 35) with real processes: production servers configured against a real OpenID
 * Provider (oidc-provider, in this process), on one Redis — a sign-out on one instance holds on
 * the other; the provider gone, the server stays up, sign-in says so clearly and people signed
 * in keep working; Redis stopped, a page is a clear 503, not a 500; and what an attacker can
 * send (a forged cookie, a replayed callback, a redirect off the app) gets nothing.
 */
const SECRET = 'reliability-suite-secret-of-at-least-32-chars'
const processes = processesPerTest()
let provider: TestOidcProvider | undefined
afterEach(async () => {
  await provider?.stop().catch(() => undefined)
  provider = undefined
})

/** Two instances of one deployment (one APP_URL, one SESSION_SECRET, one Redis) with sign-in against the test provider. */
async function deployment({ instances = 2 }: { instances?: number } = {}) {
  const redis = await processes.redis()
  const port = await freePort({ host: '127.0.0.1' })
  const appUrl = `http://127.0.0.1:${port}`
  provider = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
  const env = {
    REDIS_URL: redis.url,
    SESSION_SECRET: SECRET,
    APP_URL: appUrl,
    AUTH_OIDC_ISSUER: provider.issuer,
    AUTH_OIDC_CLIENT_ID: provider.clientId,
    AUTH_OIDC_CLIENT_SECRET: provider.clientSecret,
    AUTH_ALLOWED_EMAILS: '@example.com',
  }
  const apps = [await processes.app({ port, env })]
  for (let index = 1; index < instances; index++) apps.push(await processes.app({ env }))
  return { redis, appUrl, provider, apps, env }
}

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} })

describe('sign-in across real processes', () => {
  it('signs out on one instance, and the other refuses the session at its next request', async () => {
    const { appUrl, apps } = await deployment()
    const [one, other] = apps as [(typeof apps)[0], (typeof apps)[0]]
    const { session } = await signInOverHttp(appUrl, 'alice')
    expect(session).toBeDefined()
    expect((await get(`${other.url}/api/chats`, session)).status).toBe(200)
    expect((await get(`${other.url}/`, session)).status).toBe(200)

    const signedOut = await fetch(`${one.url}/auth/sign-out`, { method: 'POST', redirect: 'manual', headers: { cookie: session!, origin: appUrl, 'sec-fetch-site': 'same-origin' } })
    expect(signedOut.status).toBe(303)
    const refused = await get(`${other.url}/api/chats`, session)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('sign_in_required')
    const page = await get(`${other.url}/c/some-chat`, session)
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe(`${appUrl}/auth/sign-in?next=${encodeURIComponent('/c/some-chat')}`)
  })

  it('with the provider unreachable: the server stays up, sign-in ends on a clear page, and people signed in keep working', async () => {
    const { appUrl, apps, provider, env } = await deployment({ instances: 1 })
    const { session } = await signInOverHttp(appUrl, 'bob')
    // Gone between the person's login there and the callback: the code cannot be exchanged.
    const cut = await signInOverHttp(appUrl, 'alice', { beforeCallback: () => provider.stop() })
    expect(cut.session).toBeUndefined()
    expect(cut.location).toBe(`${appUrl}/auth/problem?reason=unreachable`)
    const problem = await get(cut.location)
    expect(problem.status).toBe(200)
    expect(await problem.text()).toContain('cannot be reached')
    expect((await get(`${appUrl}/api/chats`, session)).status).toBe(200)
    expect((await get(`${appUrl}/`, session)).status).toBe(200)
    expect((await get(`${appUrl}/api/health`)).status).toBe(200)
    // An instance started while the provider is gone starts, and its sign-in says so (it has not read the provider's metadata).
    const late = await processes.app({ env })
    const started = await get(`${late.url}/auth/sign-in?next=/`)
    expect(started.status).toBe(303)
    expect(started.headers.get('location')).toBe(`${appUrl}/auth/problem?reason=unreachable`)
    expect((await get(`${late.url}/api/chats`, session)).status).toBe(200)
    for (const app of [...apps, late]) expect(app.output()).not.toContain(session!.split('=')[1]!)
    await provider.restart()
  })

  it('answers a page a clear 503 while Redis is stopped, and the page again once it is back', async () => {
    const { appUrl, redis } = await deployment({ instances: 1 })
    const { session } = await signInOverHttp(appUrl, 'alice')
    await redis.stop()
    const page = await get(`${appUrl}/`, session)
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('Sign-in cannot be checked right now')
    const api = await get(`${appUrl}/api/chats`, session)
    expect(api.status).toBe(503)
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('store_unavailable')
    await redis.start()
    // The client reconnects by itself: the page is served again, with no restart, once Redis answers (15 s: a safety net).
    await expect.poll(async () => (await get(`${appUrl}/`, session)).status, { timeout: 15_000 }).toBe(200)
  })

  it('gives nothing to a forged cookie, a replayed callback or a redirect off the app', async () => {
    const { appUrl } = await deployment({ instances: 1 })
    const { session, replay } = await signInOverHttp(appUrl, 'alice', { next: '//evil.example/phish' })
    expect(session).toBeDefined()
    const forged = `${session!.slice(0, -4)}AAAA`
    expect((await get(`${appUrl}/api/chats`, forged)).status).toBe(401)
    expect((await get(`${appUrl}/`, forged)).status).toBe(303)
    const replayed = await replay()
    expect(replayed.headers.get('location')).toBe(`${appUrl}/auth/problem?reason=expired`)
    expect(replayed.headers.getSetCookie().some((line) => line.startsWith('chat_session='))).toBe(false)
    const offApp = await signInOverHttp(appUrl, 'bob', { next: '//evil.example/phish' })
    expect(offApp.location).toBe(`${appUrl}/`)
  })
})
