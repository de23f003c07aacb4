import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CLIENT_COOKIE, createClientIdentity, SECURE_CLIENT_COOKIE } from './client-identity'

const SECRET = 'a-shared-secret-of-at-least-32-characters'
const OTHER_SECRET = 'another-secret-of-at-least-32-characters!'

function request(cookie?: string, { url = 'http://localhost/api/chat', headers = {} as Record<string, string> } = {}) {
  return new Request(url, { method: 'POST', headers: { ...headers, ...(cookie ? { cookie } : {}) } })
}

/** The `name=value` part of a Set-Cookie header, as a browser would send it back. */
function cookieOf(headers: Record<string, string>): string {
  const setCookie = headers['Set-Cookie']
  expect(setCookie).toBeDefined()
  return setCookie!.split(';')[0]!
}

describe('signed client identity', () => {
  it('gives a fresh, signed, HttpOnly identity on first contact', () => {
    const identity = createClientIdentity({ secret: SECRET }).resolve(request())
    const setCookie = identity.headers['Set-Cookie']!
    expect(setCookie).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=31536000$/)
    const [id, signature] = cookieOf(identity.headers).slice(`${CLIENT_COOKIE}=`.length).split('.')
    expect(id).toBe(identity.clientId)
    expect(signature).toBe(createHmac('sha256', SECRET).update(id!).digest('base64url'))
  })

  it('behind a trusted HTTPS proxy: a Secure __Host- cookie, read back under that name only', () => {
    const identity = createClientIdentity({ secret: SECRET, trustProxy: true })
    const https = { headers: { 'x-forwarded-proto': 'https' } }
    const issued = identity.resolve(request(undefined, https))
    expect(issued.headers['Set-Cookie']).toMatch(/^__Host-chat_client_id=[\w-]{32}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=31536000; Secure$/)
    expect(issued.headers['Set-Cookie']).not.toContain('Domain')
    const cookie = cookieOf(issued.headers)
    expect(cookie.startsWith(`${SECURE_CLIENT_COOKIE}=`)).toBe(true)
    expect(identity.resolve(request(cookie, https))).toEqual({ clientId: issued.clientId, headers: {} })
    // The same signed value under the plain name is not read over https, nor the secure name over http.
    const plain = `${CLIENT_COOKIE}=${cookie.slice(`${SECURE_CLIENT_COOKIE}=`.length)}`
    expect(identity.resolve(request(plain, https)).clientId).not.toBe(issued.clientId)
    expect(identity.resolve(request(cookie)).clientId).not.toBe(issued.clientId)
  })

  it('believes X-Forwarded-Proto only when told to trust the proxy, and never the request URL alone', () => {
    const forwarded = { headers: { 'x-forwarded-proto': 'https' } }
    const untrusting = createClientIdentity({ secret: SECRET })
    expect(untrusting.resolve(request(undefined, forwarded)).headers['Set-Cookie']).toMatch(/^chat_client_id=(?!.*Secure)/)
    // Next derives the URL's scheme from that same header, so an https URL proves nothing either.
    expect(untrusting.resolve(request(undefined, { url: 'https://chat.example/api/chat' })).headers['Set-Cookie']).toMatch(/^chat_client_id=(?!.*Secure)/)
    const trusting = createClientIdentity({ secret: SECRET, trustProxy: true })
    expect(trusting.resolve(request(undefined, forwarded)).headers['Set-Cookie']).toMatch(/^__Host-chat_client_id=.*; Secure$/)
    expect(trusting.resolve(request(undefined, { headers: { 'x-forwarded-proto': 'HTTPS, http' } })).headers['Set-Cookie']).toMatch(/^__Host-/)
    expect(trusting.resolve(request(undefined, { headers: { 'x-forwarded-proto': 'http' } })).headers['Set-Cookie']).toMatch(/^chat_client_id=(?!.*Secure)/)
    expect(trusting.resolve(request()).headers['Set-Cookie']).not.toContain('Secure')
  })

  it('finds its own cookie beside a planted one of the same name', () => {
    const identity = createClientIdentity({ secret: SECRET })
    const issued = identity.resolve(request())
    const planted = `${CLIENT_COOKIE}=${'A'.repeat(32)}.${'B'.repeat(43)}`
    expect(identity.resolve(request(`${planted}; ${cookieOf(issued.headers)}`))).toEqual({ clientId: issued.clientId, headers: {} })
  })

  it('is accepted, unchanged and without a new cookie, by another instance with the same secret', () => {
    const first = createClientIdentity({ secret: SECRET })
    const second = createClientIdentity({ secret: SECRET })
    const issued = first.resolve(request())
    const cookie = cookieOf(issued.headers)
    for (const instance of [first, second]) {
      const again = instance.resolve(request(`theme=dark; ${cookie}; other=1`))
      expect(again).toEqual({ clientId: issued.clientId, headers: {} })
    }
  })

  it('replaces a cookie signed with another secret', () => {
    const theirs = createClientIdentity({ secret: OTHER_SECRET }).resolve(request())
    const ours = createClientIdentity({ secret: SECRET }).resolve(request(cookieOf(theirs.headers)))
    expect(ours.clientId).not.toBe(theirs.clientId)
    expect(ours.headers['Set-Cookie']).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43};/)
  })

  it.each([
    ['a guessable id', 'admin'],
    ['an unsigned id (the old format)', 'A'.repeat(32)],
    ['an id with an empty signature', `${'A'.repeat(32)}.`],
    ['an id with a made-up signature', `${'A'.repeat(32)}.${'B'.repeat(43)}`],
    ['an id with a truncated signature', `${'A'.repeat(32)}.${createHmac('sha256', SECRET).update('A'.repeat(32)).digest('base64url').slice(0, 42)}`],
    ['a signature of another id', `${'A'.repeat(32)}.${createHmac('sha256', SECRET).update('C'.repeat(32)).digest('base64url')}`],
    ['characters outside base64url', `${'A'.repeat(31)}!.${createHmac('sha256', SECRET).update(`${'A'.repeat(31)}!`).digest('base64url')}`],
  ])('replaces a forged value: %s', (_name, value) => {
    const identity = createClientIdentity({ secret: SECRET }).resolve(request(`${CLIENT_COOKIE}=${value}`))
    expect(identity.clientId).not.toBe(value.split('.')[0])
    expect(identity.headers['Set-Cookie']).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43};/)
  })

  it('accepts the same shape when the signature is right (the control for the cases above)', () => {
    const id = 'A'.repeat(32)
    const value = `${id}.${createHmac('sha256', SECRET).update(id).digest('base64url')}`
    expect(createClientIdentity({ secret: SECRET }).resolve(request(`${CLIENT_COOKIE}=${value}`))).toEqual({ clientId: id, headers: {} })
  })

  it('makes unguessable ids: 24 random bytes, never repeated', () => {
    const identity = createClientIdentity({ secret: SECRET })
    const ids = new Set(Array.from({ length: 1000 }, () => identity.resolve(request()).clientId))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(Buffer.from(id, 'base64url').length).toBeGreaterThanOrEqual(24)
  })

  it('refuses to be made without a secret', () => {
    expect(() => createClientIdentity({ secret: '' })).toThrow(/secret/)
  })
})

describe('a browser joined to an identity (Continue on another device)', () => {
  const JOINED = /^chat_client_id=[\w-]{32}\.[\w-]{22}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/

  it('names the identity and the browser; the identity’s first browser keeps its two-part cookie', () => {
    const identity = createClientIdentity({ secret: SECRET, revoked: () => false })
    const first = identity.resolve(request())
    const browserId = identity.newBrowserId()
    const joined = identity.joinCookie(request(), { clientId: first.clientId, browserId })
    expect(joined['Set-Cookie']).toMatch(JOINED)
    expect(identity.resolve(request(cookieOf(joined)))).toEqual({ clientId: first.clientId, browserId, headers: {} })
    // The first browser is untouched: same identity, no browser id, no new cookie.
    expect(identity.resolve(request(cookieOf(first.headers)))).toEqual({ clientId: first.clientId, headers: {} })
  })

  it('asks whether a joined browser was revoked, and gives a revoked one a fresh identity; never asks about the first browser', () => {
    const asked: string[] = []
    const revokedBrowsers = new Set<string>()
    const identity = createClientIdentity({
      secret: SECRET,
      revoked: (clientId, browserId) => {
        asked.push(`${clientId}.${browserId}`)
        return revokedBrowsers.has(`${clientId}.${browserId}`)
      },
    })
    const first = identity.resolve(request())
    const browserId = identity.newBrowserId()
    const joined = cookieOf(identity.joinCookie(request(), { clientId: first.clientId, browserId }))
    expect(identity.resolve(request(joined)).clientId).toBe(first.clientId)
    identity.resolve(request(cookieOf(first.headers)))
    expect(asked).toEqual([`${first.clientId}.${browserId}`])

    revokedBrowsers.add(`${first.clientId}.${browserId}`)
    const after = identity.resolve(request(joined))
    expect(after.clientId).not.toBe(first.clientId)
    expect(after.browserId).toBeUndefined()
    expect(after.headers['Set-Cookie']).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43};/)
  })

  it('is accepted by every instance with the same secret, over HTTPS under the __Host- name', () => {
    const https = { headers: { 'x-forwarded-proto': 'https' } }
    const one = createClientIdentity({ secret: SECRET, trustProxy: true })
    const other = createClientIdentity({ secret: SECRET, trustProxy: true, revoked: () => false })
    const browserId = one.newBrowserId()
    const joined = one.joinCookie(request(undefined, https), { clientId: 'C'.repeat(32), browserId })
    expect(joined['Set-Cookie']).toMatch(/^__Host-chat_client_id=.*; Secure$/)
    expect(other.resolve(request(cookieOf(joined), https))).toEqual({ clientId: 'C'.repeat(32), browserId, headers: {} })
  })

  const id = 'A'.repeat(32)
  const browser = 'B'.repeat(22)
  const mac = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text).digest('base64url')
  it.each([
    ['a made-up signature', `${id}.${browser}.${'C'.repeat(43)}`],
    ['the identity’s own two-part signature with a browser put in', `${id}.${browser}.${mac(id)}`],
    ['another browser’s signature', `${id}.${browser}.${mac(`${id}.${'D'.repeat(22)}`)}`],
    ['another identity’s signature', `${id}.${browser}.${mac(`${'E'.repeat(32)}.${browser}`)}`],
    ['another secret’s signature', `${id}.${browser}.${mac(`${id}.${browser}`, OTHER_SECRET)}`],
    ['a browser id of the wrong length', `${id}.${browser}X.${mac(`${id}.${browser}X`)}`],
    ['four parts', `${id}.${browser}.${browser}.${mac(`${id}.${browser}.${browser}`)}`],
  ])('replaces a forged joined cookie: %s', (_name, value) => {
    const identity = createClientIdentity({ secret: SECRET, revoked: () => false }).resolve(request(`${CLIENT_COOKIE}=${value}`))
    expect(identity.clientId).not.toBe(id)
    expect(identity.headers['Set-Cookie']).toMatch(/^chat_client_id=[\w-]{32}\.[\w-]{43};/)
  })

  it('accepts the same joined shape when the signature is right (the control for the cases above)', () => {
    const identity = createClientIdentity({ secret: SECRET, revoked: () => false })
    expect(identity.resolve(request(`${CLIENT_COOKIE}=${id}.${browser}.${mac(`${id}.${browser}`)}`))).toEqual({ clientId: id, browserId: browser, headers: {} })
  })
})
