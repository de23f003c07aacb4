import { describe, expect, it } from 'vitest'
import { readAuthConfig } from './auth-config'
import { readMcpConfig } from './mcp-config'

const signIn = {
  AUTH_OIDC_ISSUER: 'https://id.example.com/realms/staff',
  AUTH_OIDC_CLIENT_ID: 'elicit-chat',
  AUTH_OIDC_CLIENT_SECRET: 'a-client-secret',
  APP_URL: 'https://chat.example.com/',
  AUTH_ALLOWED_EMAILS: '@example.com',
}

describe('readAuthConfig', () => {
  it('is undefined with nothing configured: no sign-in, nothing changes', () => {
    expect(readAuthConfig({})).toBeUndefined()
    expect(readAuthConfig({ APP_URL: 'https://chat.example.com', AUTH_ALLOWED_EMAILS: '@example.com' })).toBeUndefined()
  })

  it('reads the provider, the public origin and the redirect URI under it', () => {
    const config = readAuthConfig({ ...signIn, AUTH_ADMIN_GROUPS: 'admins', AUTH_GROUPS_CLAIM: 'roles' })!
    expect(config.issuer).toBe('https://id.example.com/realms/staff')
    expect(config.appUrl).toBe('https://chat.example.com')
    expect(config.redirectUri).toBe('https://chat.example.com/auth/callback')
    expect(config.groupsClaim).toBe('roles')
    expect([...config.admins.groups]).toEqual(['admins'])
  })

  it('lets guests in only with AUTH_GUESTS=on, and refuses any other word', () => {
    expect(readAuthConfig(signIn)!.guests).toBe(false)
    expect(readAuthConfig({ ...signIn, AUTH_GUESTS: 'off' })!.guests).toBe(false)
    expect(readAuthConfig({ ...signIn, AUTH_GUESTS: 'on' })!.guests).toBe(true)
    expect(readAuthConfig({ ...signIn, AUTH_GUESTS: ' ON ' })!.guests).toBe(true)
    expect(() => readAuthConfig({ ...signIn, AUTH_GUESTS: 'yes' })).toThrow('AUTH_GUESTS must be "on" or "off" (unset: off); got "yes".')
  })

  it('names what is missing or wrong', () => {
    expect(() => readAuthConfig({ AUTH_OIDC_ISSUER: signIn.AUTH_OIDC_ISSUER })).toThrow(/Sign-in needs AUTH_OIDC_CLIENT_ID, AUTH_OIDC_CLIENT_SECRET, APP_URL too/)
    expect(() => readAuthConfig({ ...signIn, AUTH_ALLOWED_EMAILS: '' })).toThrow(/AUTH_ALLOWED_EMAILS .* or AUTH_ALLOWED_GROUPS: name who may enter/)
    expect(() => readAuthConfig({ ...signIn, AUTH_ALLOWED_EMAILS: 'example.com' })).toThrow(/AUTH_ALLOWED_EMAILS: "example.com" is neither/)
    expect(() => readAuthConfig({ ...signIn, APP_URL: 'https://chat.example.com/chat' })).toThrow(/APP_URL must be an origin only/)
    expect(() => readAuthConfig({ ...signIn, AUTH_OIDC_ISSUER: 'id.example.com' })).toThrow(/AUTH_OIDC_ISSUER must be an http:\/\/ or https:\/\/ URL/)
  })

  it('closes /api/mcp while sign-in is configured and MCP_AUTH_TOKEN is not', () => {
    const secret = { sessionSecret: 'x'.repeat(32) }
    expect(readMcpConfig(signIn, secret).closedWithoutToken).toMatch(/MCP_AUTH_TOKEN/)
    expect(readMcpConfig({ ...signIn, MCP_AUTH_TOKEN: 't'.repeat(32) }, secret).closedWithoutToken).toBeUndefined()
    expect(readMcpConfig({}, secret).closedWithoutToken).toBeUndefined()
  })
})
