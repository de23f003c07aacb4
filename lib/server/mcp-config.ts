import { createHmac } from 'node:crypto'
import { ConfigError, MIN_SECRET_LENGTH, type Environment } from './config'

/** What `/api/mcp` needs from the environment, read once when the server starts. */
export interface McpConfig {
  /** Signs and seals 2026-07-28 `requestState`; the same on every instance that takes rounds. */
  stateSecret: string
  /** When set, every MCP request needs `Authorization: Bearer <authToken>`. */
  authToken?: string
  /** Sign-in is configured and `MCP_AUTH_TOKEN` is not: the endpoint refuses every request, saying so. */
  closedWithoutToken?: string
  /** Host names besides localhost that the endpoint answers to (Host and Origin). */
  allowedHosts: string[]
  /** `MCP_AUTH_ISSUER`: `/api/mcp` takes that authorization server's access tokens for it. */
  oauth?: McpOAuthConfig
  /** Serve the conformance suite's fixtures too (`MCP_CONFORMANCE=1`); never in the product. */
  conformance: boolean
  /** 2025 sessions one client address (and, with a token, one token) may hold at once. */
  maxSessionsPerClient: number
}

/** `/api/mcp` as an OAuth protected resource (lib/mcp/server/resource-auth.ts, without the principal, which the composition root gives). */
export interface McpOAuthConfig {
  issuer: string
  /** `${APP_URL}/api/mcp`. */
  resource: string
  scopes: string[]
  introspection?: { url: string; clientId: string; clientSecret: string }
}

export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100

/**
 * - `MCP_STATE_SECRET`: at least 32 bytes. Unset, it is derived from `SESSION_SECRET`, so
 *   instances that share that one also share rounds.
 * - `MCP_AUTH_TOKEN`: optional bearer token — needed once sign-in is configured (`AUTH_OIDC_ISSUER`):
 *   without it the endpoint is closed, never open while the chat is.
 * - `MCP_AUTH_ISSUER` (with `APP_URL`): access tokens of this authorization server for
 *   `${APP_URL}/api/mcp`; `MCP_AUTH_SCOPES` (space- or comma-separated) the scopes it knows,
 *   `tools:<name>` one a tool's call needs; `MCP_AUTH_INTROSPECTION` (with
 *   `MCP_AUTH_INTROSPECTION_CLIENT_ID`, `MCP_AUTH_INTROSPECTION_CLIENT_SECRET`) for opaque tokens.
 * - `MCP_ALLOWED_HOSTS`: comma-separated host names (e.g. the name behind a proxy).
 * - `MCP_CONFORMANCE=1`: add the conformance fixtures.
 * - `MCP_MAX_SESSIONS_PER_CLIENT` (default 100): a positive whole number.
 */
export function readMcpConfig(env: Environment, { sessionSecret }: { sessionSecret: string }): McpConfig {
  const given = env.MCP_STATE_SECRET?.trim() || undefined
  if (given !== undefined && Buffer.byteLength(given) < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `MCP_STATE_SECRET has ${Buffer.byteLength(given)} bytes; it needs at least ${MIN_SECRET_LENGTH}, random, and the same on every instance.`,
    )
  }
  const authToken = env.MCP_AUTH_TOKEN?.trim() || undefined
  const perClient = env.MCP_MAX_SESSIONS_PER_CLIENT?.trim() || undefined
  const maxSessionsPerClient = perClient === undefined ? DEFAULT_MAX_SESSIONS_PER_CLIENT : Number(perClient)
  if (!Number.isInteger(maxSessionsPerClient) || maxSessionsPerClient <= 0) {
    throw new ConfigError(`MCP_MAX_SESSIONS_PER_CLIENT must be a positive whole number (default ${DEFAULT_MAX_SESSIONS_PER_CLIENT}); got "${perClient}".`)
  }
  const oauth = readOAuthConfig(env)
  return {
    stateSecret: given ?? createHmac('sha256', sessionSecret).update('mcp request state').digest('base64url'),
    authToken,
    closedWithoutToken: env.AUTH_OIDC_ISSUER?.trim() && !authToken && !oauth
      ? 'The chat is behind sign-in, so /api/mcp answers only with a token: the operator sets MCP_AUTH_TOKEN (or MCP_AUTH_ISSUER), and clients send Authorization: Bearer <token>.'
      : undefined,
    ...(oauth ? { oauth } : {}),
    allowedHosts: (env.MCP_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
    conformance: env.MCP_CONFORMANCE === '1',
    maxSessionsPerClient,
  }
}

function readOAuthConfig(env: Environment): McpOAuthConfig | undefined {
  const value = (name: string) => env[name]?.trim() || undefined
  const issuer = value('MCP_AUTH_ISSUER')
  if (issuer === undefined) {
    const stray = ['MCP_AUTH_SCOPES', 'MCP_AUTH_INTROSPECTION'].filter((name) => value(name) !== undefined)
    if (stray.length > 0) throw new ConfigError(`${stray.join(' and ')} ${stray.length > 1 ? 'are' : 'is'} set without MCP_AUTH_ISSUER, the authorization server whose tokens /api/mcp takes.`)
    return undefined
  }
  const issuerUrl = urlOf('MCP_AUTH_ISSUER', issuer)
  const appUrlText = value('APP_URL')
  if (appUrlText === undefined) throw new ConfigError('MCP_AUTH_ISSUER needs APP_URL too: the public origin, such as https://chat.example.com, whose /api/mcp the tokens are for.')
  const appUrl = urlOf('APP_URL', appUrlText)
  if (appUrl.pathname !== '/' || appUrl.search || appUrl.hash) throw new ConfigError(`APP_URL must be an origin only, such as https://chat.example.com (no path); got "${appUrl.href}".`)
  if (issuerUrl.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(issuerUrl.hostname)) {
    throw new ConfigError(`MCP_AUTH_ISSUER must be an https URL (http only for localhost); got "${issuer}".`)
  }
  const scopes = (value('MCP_AUTH_SCOPES') ?? '').split(/[\s,]+/).filter(Boolean)
  const introspectionUrl = value('MCP_AUTH_INTROSPECTION')
  let introspection: McpOAuthConfig['introspection']
  if (introspectionUrl !== undefined) {
    const clientId = value('MCP_AUTH_INTROSPECTION_CLIENT_ID')
    const clientSecret = value('MCP_AUTH_INTROSPECTION_CLIENT_SECRET')
    if (clientId === undefined || clientSecret === undefined) {
      throw new ConfigError('MCP_AUTH_INTROSPECTION needs MCP_AUTH_INTROSPECTION_CLIENT_ID and MCP_AUTH_INTROSPECTION_CLIENT_SECRET: the credentials /api/mcp introspects tokens with.')
    }
    introspection = { url: urlOf('MCP_AUTH_INTROSPECTION', introspectionUrl).href, clientId, clientSecret }
  }
  return { issuer, resource: `${appUrl.origin}/api/mcp`, scopes, ...(introspection ? { introspection } : {}) }
}

function urlOf(name: string, text: string): URL {
  try {
    return new URL(text)
  } catch {
    throw new ConfigError(`${name} must be a URL; got "${text}".`)
  }
}
