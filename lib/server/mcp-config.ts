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
  /** Serve the conformance suite's fixtures too (`MCP_CONFORMANCE=1`); never in the product. */
  conformance: boolean
  /** 2025 sessions one client address (and, with a token, one token) may hold at once. */
  maxSessionsPerClient: number
}

export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100

/**
 * - `MCP_STATE_SECRET`: at least 32 bytes. Unset, it is derived from `SESSION_SECRET`, so
 *   instances that share that one also share rounds.
 * - `MCP_AUTH_TOKEN`: optional bearer token — needed once sign-in is configured (`AUTH_OIDC_ISSUER`):
 *   without it the endpoint is closed, never open while the chat is.
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
  return {
    stateSecret: given ?? createHmac('sha256', sessionSecret).update('mcp request state').digest('base64url'),
    authToken,
    closedWithoutToken: env.AUTH_OIDC_ISSUER?.trim() && !authToken
      ? 'The chat is behind sign-in, so /api/mcp answers only with a token: the operator sets MCP_AUTH_TOKEN, and clients send Authorization: Bearer <MCP_AUTH_TOKEN>.'
      : undefined,
    allowedHosts: (env.MCP_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
    conformance: env.MCP_CONFORMANCE === '1',
    maxSessionsPerClient,
  }
}
