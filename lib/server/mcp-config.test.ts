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
})
