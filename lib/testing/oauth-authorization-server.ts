import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import Provider, { errors, type Configuration } from 'oidc-provider'

/** What a test needs of the authorization server in front of `/api/mcp`. */
export interface TestAuthorizationServer {
  /** `http://127.0.0.1:<port>`: `MCP_AUTH_ISSUER`. */
  issuer: string
  /** With opaque tokens: where, and as which client, the resource introspects them (`MCP_AUTH_INTROSPECTION*`). */
  introspection: { url: string; clientId: string; clientSecret: string }
  /** A JWT access token signed with the server's own key (or another, `wrongKey`), with `claims` over sensible defaults for `resource`. */
  sign(claims?: JWTPayload, options?: { wrongKey?: boolean }): Promise<string>
  /** How many grants were revoked so far (a refresh token revoked at its revocation endpoint, RFC 7009, ends its grant). */
  revokedGrants(): number
  /** The server goes down (its port closed) / comes back on the same port. */
  stop(): Promise<void>
  restart(): Promise<void>
}

/**
 * A real OAuth 2.1 authorization server for `/api/mcp`'s tests: `oidc-provider` on a free port of
 * 127.0.0.1, with dynamic client registration, PKCE, resource indicators (RFC 8707) and, for
 * `resource`, JWT access tokens whose `aud` is it and whose scopes are `scopes`. Anyone signs in
 * with any password on its own login page (lib/auth/testing/provider-login.ts drives it); the
 * subject is the login. Its signing key is made at start, and held here so tests can make
 * tokens it would not (another audience, expired).
 */
export async function startTestAuthorizationServer({
  resource,
  scopes,
  accessTokenFormat = 'jwt',
}: {
  resource: string
  scopes: readonly string[]
  /** `opaque`: the resource learns about a token only by introspection. */
  accessTokenFormat?: 'jwt' | 'opaque'
}): Promise<TestAuthorizationServer> {
  let handle: Parameters<typeof createServer>[1] = (_request, response) => response.writeHead(503).end()
  let server: Server = createServer((request, response) => handle!(request, response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${port}`
  const keys = await generateKeyPair('RS256', { extractable: true })
  const other = await generateKeyPair('RS256', { extractable: true })
  const kid = 'test-signing-key'
  const configuration: Configuration = {
    clients: [{ client_id: 'mcp-resource', client_secret: 'a-resource-secret-for-tests-only-0123456789', redirect_uris: [], grant_types: [], response_types: [] }],
    jwks: { keys: [{ ...(await exportJWK(keys.privateKey)), kid, alg: 'RS256', use: 'sig' }] as never },
    scopes: ['openid', 'offline_access', ...scopes],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget()
          return { scope: scopes.join(' '), audience: resource, accessTokenFormat, accessTokenTTL: 600, jwt: { sign: { alg: 'RS256' } } }
        },
      },
    },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id }) }
    },
  }
  const provider = new Provider(issuer, configuration)
  provider.on('server_error', (_ctx, error) => console.error('test authorization server:', error))
  let revokedGrants = 0
  provider.on('grant.revoked', () => void revokedGrants++)
  handle = provider.callback()
  return {
    issuer,
    introspection: { url: `${issuer}/token/introspection`, clientId: 'mcp-resource', clientSecret: 'a-resource-secret-for-tests-only-0123456789' },
    async sign(claims = {}, { wrongKey = false } = {}) {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ iss: issuer, aud: resource, sub: 'alice', iat: now, exp: now + 600, scope: scopes.join(' '), ...claims })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
        .sign(wrongKey ? other.privateKey : keys.privateKey)
    },
    revokedGrants: () => revokedGrants,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
    async restart() {
      server = createServer((request, response) => handle!(request, response))
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    },
  }
}
