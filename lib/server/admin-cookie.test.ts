import { describe, expect, it } from 'vitest'
import { ADMIN_COOKIE_MS, createAdminCookie } from './admin-cookie'

const withCookie = (setCookie: string) => new Request('http://localhost/admin', { headers: { cookie: setCookie.split(';')[0]! } })

describe('the admin cookie', () => {
  it('is made for the token, HttpOnly and SameSite=Strict, holds nothing of the token, and is taken until it expires', () => {
    let now = 1_000_000
    const cookie = createAdminCookie('the-admin-token', () => now)
    const issued = cookie.issue(false)
    expect(issued).toMatch(/^elicit_admin=\d+\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/)
    expect(issued).not.toContain('the-admin-token')
    expect(cookie.check(withCookie(issued))).toBe(true)
    now += ADMIN_COOKIE_MS
    expect(cookie.check(withCookie(issued))).toBe(false)
  })

  it('over HTTPS is __Host- and Secure; clearing it sets it empty at once', () => {
    const cookie = createAdminCookie('the-admin-token')
    const issued = cookie.issue(true)
    expect(issued).toMatch(/^__Host-elicit_admin=.*; Secure$/)
    expect(cookie.check(withCookie(issued))).toBe(true)
    expect(cookie.clear(true)).toBe('__Host-elicit_admin=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure')
  })

  it('refuses one made with another token, a changed expiry, or anything else', () => {
    const issued = createAdminCookie('another-token').issue(false)
    const cookie = createAdminCookie('the-admin-token')
    expect(cookie.check(withCookie(issued))).toBe(false)
    const own = cookie.issue(false)
    const [name, value] = own.split(';')[0]!.split('=')
    const [expires, mac] = value!.split('.')
    expect(cookie.check(withCookie(`${name}=${Number(expires) + 1}.${mac}`))).toBe(false)
    for (const junk of ['elicit_admin=', 'elicit_admin=1.2', 'elicit_admin=abc.def', 'other=1']) expect(cookie.check(withCookie(junk))).toBe(false)
    expect(cookie.check(new Request('http://localhost/admin'))).toBe(false)
  })
})
