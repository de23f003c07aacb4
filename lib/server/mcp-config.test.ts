import { describe, expect, it } from 'vitest'
import { ConfigError } from './config'
import { readMcpConfig } from './mcp-config'

const sessionSecret = 'x'.repeat(32)

describe('readMcpConfig', () => {
  it('derives the state secret from SESSION_SECRET when MCP_STATE_SECRET is unset, the same on every instance', () => {
    const first = readMcpConfig({}, { sessionSecret })
    expect(first).toEqual({ stateSecret: expect.any(String), authToken: undefined, allowedHosts: [], conformance: false, maxSessionsPerClient: 100 })
    expect(first.stateSecret).not.toBe(sessionSecret)
    expect(Buffer.byteLength(first.stateSecret)).toBeGreaterThanOrEqual(32)
    expect(readMcpConfig({}, { sessionSecret }).stateSecret).toBe(first.stateSecret)
  })

  it('reads the token, the hosts, the conformance switch and the sessions per client', () => {
    const config = readMcpConfig(
      {
        MCP_STATE_SECRET: 's'.repeat(40),
        MCP_AUTH_TOKEN: ' token ',
        MCP_ALLOWED_HOSTS: 'chat.example, mcp.example,',
        MCP_CONFORMANCE: '1',
        MCP_MAX_SESSIONS_PER_CLIENT: ' 50 ',
      },
      { sessionSecret },
    )
    expect(config).toEqual({ stateSecret: 's'.repeat(40), authToken: 'token', allowedHosts: ['chat.example', 'mcp.example'], conformance: true, maxSessionsPerClient: 50 })
  })

  it.each(['0', '-3', '2.5', 'many'])('refuses MCP_MAX_SESSIONS_PER_CLIENT=%s, naming the variable', (value) => {
    expect(() => readMcpConfig({ MCP_MAX_SESSIONS_PER_CLIENT: value }, { sessionSecret })).toThrow(ConfigError)
    expect(() => readMcpConfig({ MCP_MAX_SESSIONS_PER_CLIENT: value }, { sessionSecret })).toThrow(
      `MCP_MAX_SESSIONS_PER_CLIENT must be a positive whole number (default 100); got "${value}".`,
    )
  })

  it('refuses an MCP_STATE_SECRET shorter than 32 bytes', () => {
    expect(() => readMcpConfig({ MCP_STATE_SECRET: 'short' }, { sessionSecret })).toThrow(ConfigError)
    expect(() => readMcpConfig({ MCP_STATE_SECRET: 'short' }, { sessionSecret })).toThrow(/MCP_STATE_SECRET has 5 bytes; it needs at least 32/)
  })

  it('reads MCP_AUTH_ISSUER with APP_URL as the protected resource ${APP_URL}/api/mcp, its scopes and introspection', () => {
    const config = readMcpConfig(
      {
        MCP_AUTH_ISSUER: 'https://sso.example.com/realms/acme',
        APP_URL: 'https://chat.example.com/',
        MCP_AUTH_SCOPES: 'tools:book_flight, tools:book_train mcp:use',
        MCP_AUTH_INTROSPECTION: 'https://sso.example.com/realms/acme/protocol/openid-connect/token/introspect',
        MCP_AUTH_INTROSPECTION_CLIENT_ID: 'elicit-mcp',
        MCP_AUTH_INTROSPECTION_CLIENT_SECRET: 'secret',
      },
      { sessionSecret },
    )
    expect(config.oauth).toEqual({
      issuer: 'https://sso.example.com/realms/acme',
      resource: 'https://chat.example.com/api/mcp',
      scopes: ['tools:book_flight', 'tools:book_train', 'mcp:use'],
      introspection: { url: 'https://sso.example.com/realms/acme/protocol/openid-connect/token/introspect', clientId: 'elicit-mcp', clientSecret: 'secret' },
    })
    // Sign-in without MCP_AUTH_TOKEN: the issuer's tokens are the way in, so the endpoint is not closed.
    expect(readMcpConfig({ AUTH_OIDC_ISSUER: 'https://sso.example.com', MCP_AUTH_ISSUER: 'https://sso.example.com', APP_URL: 'https://chat.example.com' }, { sessionSecret }).closedWithoutToken).toBeUndefined()
    expect(readMcpConfig({ AUTH_OIDC_ISSUER: 'https://sso.example.com' }, { sessionSecret }).closedWithoutToken).toMatch(/MCP_AUTH_TOKEN \(or MCP_AUTH_ISSUER\)/)
  })

  it.each([
    [{ MCP_AUTH_ISSUER: 'https://sso.example.com' }, /MCP_AUTH_ISSUER needs APP_URL too/],
    [{ MCP_AUTH_ISSUER: 'https://sso.example.com', APP_URL: 'https://chat.example.com/chat' }, /APP_URL must be an origin only/],
    [{ MCP_AUTH_ISSUER: 'sso.example.com', APP_URL: 'https://chat.example.com' }, /MCP_AUTH_ISSUER must be a URL/],
    [{ MCP_AUTH_ISSUER: 'http://sso.example.com', APP_URL: 'https://chat.example.com' }, /must be an https URL \(http only for localhost\)/],
    [{ MCP_AUTH_ISSUER: 'https://sso.example.com', APP_URL: 'https://chat.example.com', MCP_AUTH_INTROSPECTION: 'https://sso.example.com/introspect' }, /needs MCP_AUTH_INTROSPECTION_CLIENT_ID and MCP_AUTH_INTROSPECTION_CLIENT_SECRET/],
    [{ MCP_AUTH_SCOPES: 'tools:book_flight' }, /MCP_AUTH_SCOPES is set without MCP_AUTH_ISSUER/],
  ])('refuses an OAuth configuration that cannot work, saying what to set (%o)', (env, message) => {
    expect(() => readMcpConfig(env, { sessionSecret })).toThrow(ConfigError)
    expect(() => readMcpConfig(env, { sessionSecret })).toThrow(message)
  })
})
