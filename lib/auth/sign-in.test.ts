import { run } from 'effection'
import type { CustomFetch } from 'openid-client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClientIdentity, isChatRequestError, parsePeopleList } from '../http'
import { createAccountIdentity } from './account-identity'
import { accountIdOf } from './account'
import type { AuthStore } from './auth-store'
import { createIdentityProvider } from './identity-provider'
import { createSignIn, type SignInPolicy } from './sign-in'
import { createMemoryAuthStore } from './stores/memory-store'
import { cookieOf, loginAtProvider, signInThroughProvider, valueOf, withCookie } from './testing/provider-login'
import { TEST_APP as APP, TEST_SECRET as SECRET, useTestOidcProvider } from './testing/test-provider'
import { captureServerLog } from '../telemetry/testing/server-log'

const op = useTestOidcProvider()

/** The server's log, as the operator reads it. */
let log: ReturnType<typeof captureServerLog>
beforeEach(() => {
  log = captureServerLog()
})
afterEach(() => log.restore())

const policy: SignInPolicy = {
  appUrl: APP,
  allowed: parsePeopleList({ emails: '@example.com' }),
  admins: parsePeopleList({ emails: 'alice@example.com' }),
  sessionMaxAgeMs: 7 * 24 * 3600_000,
  recheckAfterMs: 60_000,
}

/** One instance of the app's sign-in: its own provider client (its own discovery), on `store`, at the test's clock. */
function instance({
  store,
  clock = { now: Date.now() },
  ...overrides
}: {
  store: AuthStore
  clock?: { now: number }
  allowed?: string
  secret?: string
  guests?: boolean
  adopt?: (from: string, to: string) => Promise<void>
}) {
  const signIn = createSignIn({
    browser,
    guests: overrides.guests,
    adopt: overrides.adopt,
    policy: overrides.allowed ? { ...policy, allowed: parsePeopleList({ emails: overrides.allowed }) } : policy,
    provider: createIdentityProvider({ issuer: op().issuer, clientId: op().clientId, clientSecret: op().clientSecret, groupsClaim: 'groups' }),
    store,
    run: (operation) => run(operation),
    secret: overrides.secret ?? SECRET,
    now: () => clock.now,
  })
  return { signIn, clock }
}

/** The browser identity, as without sign-in (lib/http): a guest's, and whose chats move at sign-in. */
const browser = createClientIdentity({ secret: SECRET })

/** Signs `login` in through the provider's own pages; the callback's response and what the browser sent it. */
const signInAs = (signIn: ReturnType<typeof instance>['signIn'], login: string, next?: string, browserCookie?: string) => signInThroughProvider(signIn, { app: APP, login, next, browserCookie })

describe('sign-in with a real OpenID Provider', () => {
  it('signs alice in with code, PKCE, state and nonce, back to where she was, as the account whose id the app keys on', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore() })
    const started = await signIn.start(new Request(`${APP}/auth/sign-in?next=/c/chat-1`))
    const location = new URL(started.headers.get('location')!)
    expect(location.origin).toBe(op().issuer)
    expect(location.searchParams.get('code_challenge_method')).toBe('S256')
    expect(location.searchParams.get('state')).toMatch(/.{20,}/)
    expect(location.searchParams.get('nonce')).toMatch(/.{20,}/)
    expect(location.searchParams.get('redirect_uri')).toBe(`${APP}/auth/callback`)

    const { response, session } = await signInAs(signIn, 'alice')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`${APP}/c/chat-1`)
    expect(cookieOf(response, 'chat_session')).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/)
    const account = await signIn.account(withCookie(`${APP}/api/chats`, session!))
    expect(account).toEqual({ id: accountIdOf(op().issuer, 'alice'), email: 'alice@example.com', emailVerified: true, name: 'Alice Example', groups: ['eng', 'admins'], isAdmin: true, isGuest: false })
    expect(account!.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('shows carol (not on the allow-list) the not-allowed page, naming her, and gives her no session', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore() })
    const { response, session } = await signInAs(signIn, 'carol')
    expect(response.headers.get('location')).toBe(`${APP}/auth/not-allowed`)
    expect(session).toBeUndefined()
    expect(signIn.refusedEmail(withCookie(`${APP}/auth/not-allowed`, valueOf(cookieOf(response, 'chat_refused'))))).toBe('carol@other.org')
  })

  it('refuses a replayed callback (its state taken once) and a callback without the browser that started it', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore() })
    const { callbackRequest, session } = await signInAs(signIn, 'bob')
    expect(session).toBeDefined()
    const replayed = await signIn.callback(callbackRequest())
    expect(replayed.headers.get('location')).toBe(`${APP}/auth/problem?reason=expired`)
    expect(cookieOf(replayed, 'chat_session')).toBeUndefined()

    const started = await signIn.start(new Request(`${APP}/auth/sign-in`))
    const callbackUrl = await loginAtProvider(started.headers.get('location')!, 'bob', { redirectUriPrefix: `${APP}/auth/callback` })
    const elsewhere = await signIn.callback(new Request(callbackUrl))
    expect(elsewhere.headers.get('location')).toBe(`${APP}/auth/problem?reason=expired`)
  })

  it('never redirects off the app: a next of another host becomes /', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore() })
    const { response } = await signInAs(signIn, 'bob', '//evil.example/phish')
    expect(response.headers.get('location')).toBe(`${APP}/`)
  })

  it('refuses a forged cookie, one signed with another secret, and none at all with 401 sign_in_required', async () => {
    const store = createMemoryAuthStore()
    const { signIn } = instance({ store })
    const { session } = await signInAs(signIn, 'bob')
    const [name, value] = session!.split('=') as [string, string]
    const [id, accountId] = value.split('.')
    const foreign = instance({ store, secret: 'another-secret-of-another-deployment-000000' }).signIn
    expect(await foreign.account(withCookie(APP, session!))).toBeUndefined()
    expect(await signIn.account(withCookie(APP, `${name}=${id}.${accountIdOf(op().issuer, 'alice')}.${value.split('.')[2]}`))).toBeUndefined()
    expect(await signIn.account(withCookie(APP, `${name}=${id}.${accountId}.${'A'.repeat(43)}`))).toBeUndefined()
    const refusal = await signIn.requireAccount(new Request(APP)).catch((error: unknown) => error)
    expect(isChatRequestError(refusal) && refusal.toResponse().status).toBe(401)
    expect(isChatRequestError(refusal) && refusal.code).toBe('sign_in_required')
  })

  it('ends a session on every instance of one store when the person signs out on one', async () => {
    const store = createMemoryAuthStore()
    const one = instance({ store }).signIn
    const other = instance({ store }).signIn
    const { session } = await signInAs(one, 'alice')
    expect((await other.account(withCookie(APP, session!)))?.email).toBe('alice@example.com')
    const signedOut = await one.signOut(withCookie(`${APP}/auth/sign-out`, session!, { method: 'POST', headers: { origin: APP, 'sec-fetch-site': 'same-origin' } }))
    expect(signedOut.headers.get('location')).toBe(`${APP}/auth/signed-out`)
    expect(cookieOf(signedOut, 'chat_session')).toMatch(/Max-Age=0/)
    expect(await other.account(withCookie(APP, session!))).toBeUndefined()
  })

  it('refuses a sign-out posted by another site', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore() })
    const { session } = await signInAs(signIn, 'alice')
    await expect(signIn.signOut(withCookie(`${APP}/auth/sign-out`, session!, { method: 'POST', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }))).rejects.toThrow(/Sign out from the chat itself/)
    expect(await signIn.account(withCookie(APP, session!))).toBeDefined()
  })

  it('ends the session of a person disabled at the provider at the first request a minute after the last check, not before', async () => {
    const clock = { now: Date.now() }
    const { signIn } = instance({ store: createMemoryAuthStore(), clock })
    const { session } = await signInAs(signIn, 'bob')
    op().disable('bob')
    clock.now += 59_000
    expect((await signIn.account(withCookie(APP, session!)))?.email).toBe('bob@example.com')
    clock.now += 2_000
    expect(await signIn.account(withCookie(APP, session!))).toBeUndefined()
    expect(await signIn.account(withCookie(APP, session!))).toBeUndefined()
  })

  it('ends the session of a person taken off the allow-list at their next request', async () => {
    const store = createMemoryAuthStore()
    const { session } = await signInAs(instance({ store }).signIn, 'alice')
    const restarted = instance({ store, allowed: 'bob@example.com' }).signIn
    expect(await restarted.account(withCookie(APP, session!))).toBeUndefined()
  })

  it('with the provider down: a clear page at sign-in, and the people signed in keep working past their check', async () => {
    const clock = { now: Date.now() }
    const store = createMemoryAuthStore()
    const { signIn } = instance({ store, clock })
    const { session } = await signInAs(signIn, 'alice')
    await op().stop()
    try {
      const fresh = instance({ store, clock }).signIn
      const started = await fresh.start(new Request(`${APP}/auth/sign-in`))
      expect(started.headers.get('location')).toBe(`${APP}/auth/problem?reason=unreachable`)
      clock.now += 61_000
      expect((await signIn.account(withCookie(APP, session!)))?.email).toBe('alice@example.com')
      // Each said once, at warn, with its code; the network's description is ours, on the line.
      const unreachable = { level: 'warn', code: 'sign_in_provider_unreachable', errorType: 'ProviderError', detail: expect.stringMatching(/the provider cannot be reached/) }
      expect(log.lines).toEqual([
        expect.objectContaining({ ...unreachable, msg: 'a sign-in could not start' }),
        expect.objectContaining({ ...unreachable, msg: 'a session could not be checked again; it is kept and checked again later' }),
      ])
      expect(JSON.stringify(log.lines)).not.toContain(session!.split('=')[1]!)
    } finally {
      await op().restart()
    }
  })
})

describe('guests, and a browser’s chats from before signing in', () => {
  /** A browser identity's cookie, as the browser holds it once it has chatted without signing in. */
  function browserCookie() {
    const fresh = browser.resolve(new Request(APP))
    return { clientId: fresh.clientId, cookie: fresh.headers['Set-Cookie']!.split(';')[0]! }
  }

  it('with AUTH_GUESTS=on lets a visitor without a session chat as their browser identity, a guest; without it, refuses them 401', async () => {
    const store = createMemoryAuthStore()
    const guests = instance({ store, guests: true }).signIn
    const { clientId, cookie } = browserCookie()
    expect(await guests.person(withCookie(APP, cookie))).toEqual({ id: clientId, email: '', emailVerified: false, name: 'Guest', groups: [], isAdmin: false, isGuest: true })
    expect(await guests.person(new Request(APP))).toBeUndefined()
    const identity = createAccountIdentity(guests, browser)
    expect(await identity.identify(withCookie(APP, cookie))).toEqual({ clientId, headers: {} })
    const newcomer = await identity.identify(new Request(APP))
    expect(newcomer.headers['Set-Cookie']).toMatch(/^chat_client_id=/)
    // Signed in, the same browser is the account, not the guest.
    const { session } = await signInAs(guests, 'alice', '/', cookie)
    expect((await identity.identify(withCookie(APP, `${session!}; ${cookie}`))).clientId).toBe(accountIdOf(op().issuer, 'alice'))
    expect(await guests.person(withCookie(APP, `${session!}; ${cookie}`))).toMatchObject({ email: 'alice@example.com', isGuest: false })

    const closed = instance({ store }).signIn
    expect(closed.guests).toBe(false)
    expect(await closed.person(withCookie(APP, cookie))).toBeUndefined()
    const refusal = await createAccountIdentity(closed).identify(withCookie(APP, cookie)).catch((error: unknown) => error)
    expect(isChatRequestError(refusal) && refusal.code).toBe('sign_in_required')
  })

  it('moves the browser identity’s work to the account at the callback, from the browser that had one only', async () => {
    const moved: Array<[string, string]> = []
    const { signIn } = instance({ store: createMemoryAuthStore(), adopt: async (from, to) => void moved.push([from, to]) })
    const { clientId, cookie } = browserCookie()
    await signInAs(signIn, 'alice', '/', cookie)
    expect(moved).toEqual([[clientId, accountIdOf(op().issuer, 'alice')]])
    // A browser with no identity (or a forged one) has nothing to move.
    await signInAs(signIn, 'alice')
    await signInAs(signIn, 'alice', '/', `chat_client_id=${'A'.repeat(32)}.${'B'.repeat(43)}`)
    expect(moved).toHaveLength(1)
  })

  it('signs the person in even when their browser’s chats cannot be moved now, and says so in the log', async () => {
    const { signIn } = instance({ store: createMemoryAuthStore(), adopt: () => Promise.reject(new Error('The chats’ store cannot be reached for alice@example.com')) })
    const { response, session } = await signInAs(signIn, 'alice', '/c/x', browserCookie().cookie)
    expect(response.headers.get('location')).toBe(`${APP}/c/x`)
    expect(session).toBeDefined()
    // The error's message may name the person: only with LOG_CONTENT=1.
    expect(log.lines).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'the browser’s chats could not be moved to the account; they move at its next sign-in', code: 'sign_in_adopt_failed', errorType: 'Error' },
    ])
  })
})

describe('sign-in against a provider whose answers are tampered with on the way', () => {
  /** The real provider, reached through a network that changes the ID token the token endpoint sends back. */
  async function signInThrough(tamper: (idToken: string) => string) {
    const tampering: CustomFetch = async (url, init) => {
      const response = await fetch(url, init as RequestInit)
      if (!url.endsWith('/token')) return response
      const tokens = (await response.json()) as { id_token: string }
      tokens.id_token = tamper(tokens.id_token)
      return Response.json(tokens, { status: response.status, headers: { 'cache-control': 'no-store' } })
    }
    const provider = createIdentityProvider({ issuer: op().issuer, clientId: op().clientId, clientSecret: op().clientSecret, groupsClaim: 'groups', fetch: tampering })
    const signIn = createSignIn({ policy, provider, store: createMemoryAuthStore(), run: (operation) => run(operation), secret: SECRET })
    return signInAs(signIn, 'alice')
  }
  const part = (token: string, index: number) => token.split('.')[index]!
  const payloadOf = (token: string) => JSON.parse(Buffer.from(part(token, 1), 'base64url').toString()) as Record<string, unknown>
  const withPayload = (token: string, payload: Record<string, unknown>) => `${part(token, 0)}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${part(token, 2)}`

  it('refuses an ID token whose signature is not the provider’s: the problem page, no session', async () => {
    const { response, session } = await signInThrough((token) => withPayload(token, { ...payloadOf(token), email: 'mallory@example.com' }))
    expect(response.headers.get('location')).toBe(`${APP}/auth/problem?reason=failed`)
    expect(session).toBeUndefined()
    // Said once, with its code; the provider's answer may quote a claim, so not its message.
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'a sign-in could not be completed', code: expect.stringMatching(/^sign_in_provider_(refused|invalid)$/), errorType: 'ProviderError' })])
    expect(JSON.stringify(log.lines)).not.toContain('mallory')
  })

  it('refuses an expired ID token (its expiry in the past, re-signed or not it is refused)', async () => {
    const { response, session } = await signInThrough((token) => withPayload(token, { ...payloadOf(token), exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }))
    expect(response.headers.get('location')).toBe(`${APP}/auth/problem?reason=failed`)
    expect(session).toBeUndefined()
  })
})
