import { describe, expect, it } from 'vitest'
import { createAuthCookies } from './auth-cookies'
import { createSigner } from './signed-value'

const signer = createSigner('a-secret-for-the-cookie-tests-only-0123456789')
const request = (cookie: string) => new Request('https://chat.example.com/', { headers: { cookie } })
const pair = (setCookie: string) => setCookie.split(';')[0]!

describe('the sign-in cookies', () => {
  it('are __Host-, Secure, HttpOnly and SameSite=Lax over HTTPS, and read back', () => {
    const cookies = createAuthCookies({ signer, secure: true })
    const set = cookies.set('session', 'session-id.account-id', 60)
    expect(set).toMatch(/^__Host-chat_session=session-id\.account-id\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=60; Secure$/)
    expect(cookies.read(request(pair(set)), 'session')).toBe('session-id.account-id')
    // Over HTTPS only the __Host- name is read: a plain-http page cannot plant one.
    expect(cookies.read(request(pair(set).replace('__Host-', '')), 'session')).toBeUndefined()
  })

  it('are plain-named without Secure on http', () => {
    expect(createAuthCookies({ signer, secure: false }).set('session', 'a.b', 60)).toMatch(/^chat_session=a\.b\.\S+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=60$/)
  })

  it('never take a value signed for one purpose as another, nor one with another secret, and find the real one behind a planted duplicate', () => {
    const cookies = createAuthCookies({ signer, secure: false })
    const flow = pair(cookies.set('signIn', 'a.b', 60)).split('=')[1]!
    expect(cookies.read(request(`chat_session=${flow}`), 'session')).toBeUndefined()
    const foreign = createAuthCookies({ signer: createSigner('another-secret-of-another-deployment-0000'), secure: false })
    expect(cookies.read(request(pair(foreign.set('session', 'a.b', 60))), 'session')).toBeUndefined()
    expect(cookies.read(request(`chat_session=forged.value.x; ${pair(cookies.set('session', 'a.b', 60))}`), 'session')).toBe('a.b')
  })
})
