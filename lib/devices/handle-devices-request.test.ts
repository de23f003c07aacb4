import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClientIdentity, type ClientIdentityResolver } from '../http'
import { createDevices } from './devices'
import { handleDevicesRequest, type DevicesApp, type DevicesEndpoint } from './handle-devices-request'
import { createJoinLimiter } from './join-limiter'
import { DEFAULT_DEVICE_LIMITS } from './limits'
import { createMemoryDeviceStore } from './stores/memory-store'
import { openInScope, type InScope } from '@/lib/testing/in-scope'
import type { DeviceStore } from './device-store'

const SECRET = 'a-secret-for-the-devices-tests-0123456789'
const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const URLS: Record<DevicesEndpoint['action'], [string, string]> = {
  list: ['GET', '/api/devices'],
  'create-code': ['POST', '/api/devices/codes'],
  join: ['POST', '/api/devices/join'],
  revoke: ['DELETE', '/api/devices/'],
}

let clock: number
let opened: InScope<DeviceStore>
let identity: ClientIdentityResolver
let app: DevicesApp

beforeEach(async () => {
  clock = Date.UTC(2026, 10, 26, 8, 0, 0)
  opened = await openInScope(function* () {
    return createMemoryDeviceStore()
  })
  identity = createClientIdentity({ secret: SECRET, revoked: opened.value.revoked })
  const devices = createDevices({ store: opened.value, secret: SECRET, newBrowserId: identity.newBrowserId, now: () => clock })
  app = { devices, identity, joins: createJoinLimiter(DEFAULT_DEVICE_LIMITS, () => clock), run: opened.run }
})
afterEach(() => opened.destroy())

/** A browser: it keeps the identity cookie it is given, and sends it back, as a browser does. */
function browser(userAgent: string, address = '203.0.113.7') {
  let cookie: string | undefined
  return {
    get cookie() {
      return cookie
    },
    async send(endpoint: DevicesEndpoint, { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {}) {
      const [method, path] = URLS[endpoint.action]
      const url = `http://localhost${path}${endpoint.action === 'revoke' ? endpoint.id : ''}`
      const request = new Request(url, {
        method,
        headers: {
          'user-agent': userAgent,
          'x-forwarded-for': address,
          'sec-fetch-site': 'same-origin',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const response = await handleDevicesRequest({ app, request, endpoint })
      const set = response.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]
      return response
    },
    /** Who this browser is, as every route sees it. */
    whoAmI() {
      return identity.resolve(new Request('http://localhost/api/chats', { headers: cookie ? { cookie } : {} })).clientId
    },
  }
}

async function codeOf(from: ReturnType<typeof browser>): Promise<string> {
  const response = await from.send({ action: 'create-code' })
  expect(response.status).toBe(201)
  return ((await response.json()) as { code: string }).code
}

describe('Continue on another device (the API)', () => {
  it('joins a second browser with a code: it is the same identity from then on, and both are listed', async () => {
    const laptop = browser(LAPTOP)
    const phone = browser(PHONE, '198.51.100.9')
    await laptop.send({ action: 'list' })
    await phone.send({ action: 'list' })
    expect(phone.whoAmI()).not.toBe(laptop.whoAmI())

    const made = await laptop.send({ action: 'create-code' })
    expect(made.status).toBe(201)
    const { code, expiresAt, joinPath } = (await made.json()) as { code: string; expiresAt: number; joinPath: string }
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(expiresAt).toBe(clock + 10 * 60 * 1000)
    expect(joinPath).toBe(`/join?code=${code}`)

    // Typed on a phone: lower case, no dash.
    const joined = await phone.send({ action: 'join' }, { body: { code: code.replace('-', '').toLowerCase() } })
    expect(joined.status).toBe(200)
    expect(joined.headers.get('set-cookie')).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{22}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax/)
    expect(phone.whoAmI()).toBe(laptop.whoAmI())

    const list = (await (await laptop.send({ action: 'list' })).json()) as { browsers: unknown[] }
    expect(list.browsers).toEqual([
      { id: 'first', name: 'Firefox on Linux', joinedAt: clock, current: true, revocable: false },
      { id: expect.stringMatching(/^[\w-]{22}$/), name: 'Safari on iPhone', joinedAt: clock, current: false, revocable: true },
    ])
    const fromPhone = (await (await phone.send({ action: 'list' })).json()) as { browsers: Array<{ current: boolean; name: string }> }
    expect(fromPhone.browsers.filter((entry) => entry.current).map((entry) => entry.name)).toEqual(['Safari on iPhone'])
  })

  it('takes a code once: a second browser using it is refused, 400 invalid_code', async () => {
    const laptop = browser(LAPTOP)
    const code = await codeOf(laptop)
    expect((await browser(PHONE, '198.51.100.1').send({ action: 'join' }, { body: { code } })).status).toBe(200)
    const second = browser(PHONE, '198.51.100.2')
    const again = await second.send({ action: 'join' }, { body: { code } })
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ error: { code: 'invalid_code', message: expect.stringMatching(/not right, or it was used already/) } })
    expect(second.whoAmI()).not.toBe(laptop.whoAmI())
  })

  it('refuses a code after 10 minutes: 410 code_expired, then as unknown', async () => {
    const laptop = browser(LAPTOP)
    const code = await codeOf(laptop)
    clock += 10 * 60 * 1000
    const phone = browser(PHONE)
    const late = await phone.send({ action: 'join' }, { body: { code } })
    expect(late.status).toBe(410)
    expect(await late.json()).toEqual({ error: { code: 'code_expired', message: expect.stringMatching(/expired: a code works for 10 minutes/) } })
    expect((await phone.send({ action: 'join' }, { body: { code } })).status).toBe(400)
  })

  it('keeps at most 3 live codes per identity: 429 too_many_codes', async () => {
    const laptop = browser(LAPTOP)
    for (let i = 0; i < 3; i++) await codeOf(laptop)
    const fourth = await laptop.send({ action: 'create-code' })
    expect(fourth.status).toBe(429)
    expect(((await fourth.json()) as { error: { code: string } }).error.code).toBe('too_many_codes')
  })

  it('limits join attempts per address: the 11th wrong code in a row is 429 with Retry-After, even when right', async () => {
    const laptop = browser(LAPTOP)
    const code = await codeOf(laptop)
    const guesser = browser(PHONE, '192.0.2.66')
    for (let i = 0; i < 10; i++) {
      expect((await guesser.send({ action: 'join' }, { body: { code: `AAAA-AAA${i}` } })).status).toBe(400)
    }
    const limited = await guesser.send({ action: 'join' }, { body: { code } })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/Too many codes tried/), scope: 'address' } })
    // Another address is not held back, and the code was not spent by the refused attempt.
    expect((await browser(PHONE, '192.0.2.77').send({ action: 'join' }, { body: { code } })).status).toBe(200)
    // Ten seconds later the guesser has one attempt again (6 a minute).
    clock += 10_000
    expect((await guesser.send({ action: 'join' }, { body: { code: 'AAAA-AAAA' } })).status).toBe(400)
  })

  it('limits join attempts for the whole server: 100 at once, from any addresses', async () => {
    for (let i = 0; i < 100; i++) {
      expect((await browser(PHONE, `10.0.${Math.floor(i / 10)}.${i % 10}`).send({ action: 'join' }, { body: { code: 'AAAA-AAAA' } })).status).toBe(400)
    }
    const limited = await browser(PHONE, '10.1.0.1').send({ action: 'join' }, { body: { code: 'AAAA-AAAA' } })
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as { error: { scope: string } }).error.scope).toBe('server')
  })

  it('revokes a joined browser: it gets an identity of its own with its next request, and the list no longer has it', async () => {
    const laptop = browser(LAPTOP)
    const phone = browser(PHONE, '198.51.100.9')
    await phone.send({ action: 'join' }, { body: { code: await codeOf(laptop) } })
    const phoneId = (((await (await laptop.send({ action: 'list' })).json()) as { browsers: Array<{ id: string }> }).browsers[1]!).id
    const revoked = await laptop.send({ action: 'revoke', id: phoneId })
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toEqual({ id: phoneId, revoked: true })

    const next = await phone.send({ action: 'list' })
    expect(next.headers.get('set-cookie')).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43};/)
    expect(await next.json()).toEqual({ browsers: [] })
    expect(phone.whoAmI()).not.toBe(laptop.whoAmI())
    expect(((await (await laptop.send({ action: 'list' })).json()) as { browsers: unknown[] }).browsers).toHaveLength(1)
    expect((await laptop.send({ action: 'revoke', id: phoneId })).status).toBe(404)
  })

  it('does not revoke the asking browser nor the identity’s first (409 not_revocable), nor another identity’s (404)', async () => {
    const laptop = browser(LAPTOP)
    const phone = browser(PHONE, '198.51.100.9')
    await phone.send({ action: 'join' }, { body: { code: await codeOf(laptop) } })
    const { browsers } = (await (await phone.send({ action: 'list' })).json()) as { browsers: Array<{ id: string; current: boolean }> }
    const own = browsers.find((entry) => entry.current)!.id
    expect((await phone.send({ action: 'revoke', id: own })).status).toBe(409)
    expect((await phone.send({ action: 'revoke', id: 'first' })).status).toBe(409)
    expect((await laptop.send({ action: 'revoke', id: 'first' })).status).toBe(409)
    const stranger = browser(LAPTOP, '192.0.2.1')
    const foreign = await stranger.send({ action: 'revoke', id: own })
    expect(foreign.status).toBe(404)
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('browser_not_found')
    expect((await stranger.send({ action: 'revoke', id: '../../etc' })).status).toBe(404)
    expect(phone.whoAmI()).toBe(laptop.whoAmI())
  })

  it('with sign-in configured, answers every endpoint 409 sign_in_there: the person signs in on the other device instead', async () => {
    const laptop = browser(LAPTOP)
    const code = await codeOf(laptop)
    app = { ...app, signInThere: true }
    const phone = browser(PHONE, '198.51.100.9')
    for (const [endpoint, body] of [[{ action: 'list' }], [{ action: 'create-code' }, {}], [{ action: 'join' }, { code }], [{ action: 'revoke', id: 'A'.repeat(22) }]] as Array<[DevicesEndpoint, unknown?]>) {
      const response = await phone.send(endpoint, { body })
      expect(response.status, endpoint.action).toBe(409)
      expect(await response.json(), endpoint.action).toEqual({ error: { code: 'sign_in_there', message: 'Sign in on the other device with the same account: your chats follow your account there.' } })
    }
    expect(phone.whoAmI()).not.toBe(laptop.whoAmI())
  })

  it('refuses changes from another site’s page, 403, and joins nobody', async () => {
    const laptop = browser(LAPTOP)
    const code = await codeOf(laptop)
    const victim = browser(PHONE)
    const otherSites: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'null' }]
    for (const headers of otherSites) {
      const response = await victim.send({ action: 'join' }, { body: { code }, headers })
      expect(response.status).toBe(403)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden_origin')
    }
    expect((await laptop.send({ action: 'create-code' }, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403)
    expect(victim.whoAmI()).not.toBe(laptop.whoAmI())
  })

  it('validates what is sent: 400 for a wrong shape, 415 for another media type, 413 for a large body', async () => {
    const phone = browser(PHONE)
    const wrong = await phone.send({ action: 'join' }, { body: { code: 42 } })
    expect(wrong.status).toBe(400)
    expect(((await wrong.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^The request is not valid: code:/) })
    expect((await phone.send({ action: 'join' }, { body: { code: 'ABCD-EFGH', extra: true } })).status).toBe(400)
    expect((await phone.send({ action: 'join' }, { body: { code: 'x'.repeat(10_000) } })).status).toBe(413)
    expect((await phone.send({ action: 'join' }, { body: 'ABCD-EFGH', headers: { 'content-type': 'text/plain' } })).status).toBe(415)
    expect((await phone.send({ action: 'create-code' }, { body: { please: true } })).status).toBe(400)
  })
})
