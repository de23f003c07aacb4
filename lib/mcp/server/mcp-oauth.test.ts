import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createOfflineModel } from '../../models'
import { accountIdOf } from '../../auth/account'
import { loginAtProvider } from '../../auth/testing/provider-login'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../../testing/oauth-authorization-server'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { createResourceAuth, type ResourceAuth } from './resource-auth'
import { connectBookingClient, firstChoices, type Era } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'
import { recordConsoleLines } from '../../testing/console-lines'
import { captureServerLog } from '../../telemetry/testing/server-log'

const STATIC_TOKEN = 'a-static-token-for-one-machine-client'
const SCOPES = ['tools:book_train', 'mcp:use']
const BOOK = { name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }
const REDIRECT = 'http://127.0.0.1:9/oauth/callback'
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

let served: { url: URL; close(): Promise<void> }
let endpoint: McpEndpoint
let authServer: TestAuthorizationServer
let resourceAuth: ResourceAuth
let logged: string[]
let serverLog: ReturnType<typeof captureServerLog>
const clients: Client[] = []

beforeEach(async () => {
  logged = recordConsoleLines()
  serverLog = captureServerLog()
  // The resource's origin serves its metadata (as the app's /.well-known route does) and /api/mcp.
  served = await serveFetch((request) =>
    new URL(request.url).pathname.startsWith('/.well-known/oauth-protected-resource') ? Promise.resolve(resourceAuth.metadataResponse()) : endpoint.handle(request),
  )
  authServer = await startTestAuthorizationServer({ resource: served.url.href, scopes: SCOPES })
  resourceAuth = createResourceAuth({ issuer: authServer.issuer, resource: served.url.href, scopes: SCOPES, principalOf: accountIdOf })
  endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 's'.repeat(40), authToken: STATIC_TOKEN, resourceAuth })
})

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await served.close()
  await endpoint.close()
  await authServer.stop().catch(() => {})
  vi.restoreAllMocks()
  serverLog.restore()
})

/** An MCP host's OAuth client, in memory: it registers itself, and "opens" the authorization URL by keeping it. */
class HostOAuth implements OAuthClientProvider {
  authorizationUrl?: URL
  private information?: Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0]
  private saved?: Parameters<OAuthClientProvider['saveTokens']>[0]
  private verifier = ''
  readonly redirectUrl = REDIRECT
  readonly clientMetadata = {
    client_name: 'oauth-test host',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
  clientInformation = () => this.information
  saveClientInformation = (information: typeof this.information) => void (this.information = information)
  tokens = () => this.saved
  saveTokens = (tokens: typeof this.saved) => void (this.saved = tokens)
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url)
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier)
  codeVerifier = () => this.verifier
  get accessToken(): string {
    return this.saved!.access_token
  }
}

/** The whole flow a host runs: a 401 from /api/mcp, discovery, registration, the person signs in, code + PKCE for the resource, tokens. */
async function signedInHost(login: string): Promise<HostOAuth> {
  const oauth = new HostOAuth()
  const transport = new StreamableHTTPClientTransport(served.url, { authProvider: oauth })
  const client = new Client({ name: 'oauth-test', version: '1.0.0' })
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
  expect(oauth.authorizationUrl!.searchParams.get('resource')).toBe(served.url.href)
  const back = await loginAtProvider(oauth.authorizationUrl!.href, login, { redirectUriPrefix: REDIRECT })
  await transport.finishAuth(back.searchParams)
  return oauth
}

function post(body: unknown, token?: string) {
  return fetch(served.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
}

describe('/api/mcp as an OAuth protected resource', () => {
  it('serves its metadata and answers a request without a token with 401 and the challenge that leads to it', async () => {
    const metadataUrl = `${served.url.origin}/.well-known/oauth-protected-resource/api/mcp`
    expect(await (await fetch(metadataUrl)).json()).toEqual({
      resource: served.url.href,
      authorization_servers: [authServer.issuer],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Elicit Chat MCP server',
    })
    const refused = await post(INITIALIZE)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer scope="tools:book_train mcp:use", resource_metadata="${metadataUrl}"`)
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/^Unauthorized/) } })
  })

  for (const era of ['2025', '2026'] as Era[]) {
    it(`lets a v2 client run the OAuth flow from the 401 and book a train with the token (${era})`, async () => {
      const oauth = await signedInHost('alice')
      const { client } = await connectBookingClient({ url: served.url, era, answer: firstChoices, authProvider: oauth })
      clients.push(client)
      const result = await client.callTool(BOOK)
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', seat: '1A' })
      // Never a token in the server's logs.
      expect(logged.filter((line) => line.includes(oauth.accessToken))).toEqual([])
    })
  }

  it("makes the token's iss+sub the caller: a 2025 session opened by alice is not found for bob, nor for the static token", async () => {
    const alice = await authServer.sign({ sub: 'alice' })
    const bob = await authServer.sign({ sub: 'bob' })
    const opened = await post(INITIALIZE, alice)
    expect(opened.status).toBe(200)
    const sessionId = opened.headers.get('mcp-session-id')!
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }
    const inSession = (token: string) =>
      fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify(list),
      })
    expect((await inSession(bob)).status).toBe(404)
    expect((await inSession(STATIC_TOKEN)).status).toBe(404)
    // A fresh token of the same person is the same caller.
    expect((await inSession(await authServer.sign({ sub: 'alice', jti: 'another' }))).status).toBe(200)
  })

  it('refuses a call of a tool whose scope the token lacks with 403 insufficient_scope; the static token still books', async () => {
    const token = await authServer.sign({ scope: 'mcp:use' })
    const { client } = await connectBookingClient({ url: served.url, era: '2026', answer: firstChoices, headers: { authorization: `Bearer ${token}` } })
    clients.push(client)
    await expect(client.callTool(BOOK)).rejects.toThrow()
    const refused = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: BOOK }, token)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", error_description="[^"]+", scope="mcp:use tools:book_train", resource_metadata="http:/)
    expect(await refused.json()).toMatchObject({ error: { message: 'Forbidden: this call needs the scope tools:book_train, which the access token does not grant.' } })

    const machine = await connectBookingClient({ url: served.url, era: '2026', answer: firstChoices, headers: { authorization: `Bearer ${STATIC_TOKEN}` } })
    clients.push(machine.client)
    expect((await machine.client.callTool(BOOK)).structuredContent).toMatchObject({ status: 'confirmed', seat: '1A' })
  })

  it('refuses a token for another resource, of another issuer, expired, wrongly signed, or not a JWT, with 401 invalid_token and a reason', async () => {
    const now = Math.floor(Date.now() / 1000)
    const cases: [string, RegExp][] = [
      [await authServer.sign({ aud: 'https://other.example/api/mcp' }), /not for this resource/],
      [await authServer.sign({ iss: 'https://other-issuer.example' }), /another authorization server/],
      [await authServer.sign({ iat: now - 3600, exp: now - 600 }), /has expired/],
      [await authServer.sign({}, { wrongKey: true }), /not signed by the authorization server/],
      ['an-opaque-token', /not a JWT/],
    ]
    for (const [token, reason] of cases) {
      const refused = await post(INITIALIZE, token)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect((await refused.json()).error.message).toMatch(reason)
    }
    // Within the allowed clock skew (60 s), a token just past its expiry is still taken.
    expect((await post(INITIALIZE, await authServer.sign({ exp: now - 20 }))).status).toBe(200)
    expect(logged.filter((line) => cases.some(([token]) => line.includes(token)))).toEqual([])
  })

  it('refuses a token it took before once it has expired (a verified token is kept only until its exp)', async () => {
    const token = await authServer.sign({ exp: Math.floor(Date.now() / 1000) + 30 })
    expect((await post(INITIALIZE, token)).status).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 })
    try {
      const refused = await post(INITIALIZE, token)
      expect(refused.status).toBe(401)
      expect((await refused.json()).error.message).toMatch(/has expired/)
    } finally {
      vi.useRealTimers()
    }
  })

  it("answers 503 while the issuer's keys cannot be fetched, and takes tokens again once they can", async () => {
    const token = await authServer.sign()
    await authServer.stop()
    const refused = await post(INITIALIZE, token)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect((await refused.json()).error.message).toBe('The authorization server cannot be reached to check the access token. Try again in a moment.')
    // The server is still up: the static token is served meanwhile.
    expect((await post(INITIALIZE, STATIC_TOKEN)).status).toBe(200)
    await authServer.restart()
    await vi.waitFor(async () => expect((await post(INITIALIZE, token)).status).toBe(200), { timeout: 10_000, interval: 500 })
    expect(logged.filter((line) => line.includes(token))).toEqual([])
    // The operator is told why, at warn, with its code: the network's error, never the token.
    expect(serverLog.lines).toContainEqual(expect.objectContaining({ level: 'warn', code: 'mcp_auth_keys_unavailable', detail: expect.stringMatching(/\S/) }))
    expect(JSON.stringify(serverLog.lines)).not.toContain(token)
  })
})

describe('opaque access tokens, by introspection (MCP_AUTH_INTROSPECTION)', () => {
  beforeEach(async () => {
    await endpoint.close()
    await authServer.stop()
    authServer = await startTestAuthorizationServer({ resource: served.url.href, scopes: SCOPES, accessTokenFormat: 'opaque' })
    resourceAuth = createResourceAuth({ issuer: authServer.issuer, resource: served.url.href, scopes: SCOPES, introspection: authServer.introspection, principalOf: accountIdOf })
    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 's'.repeat(40), resourceAuth })
  })

  it('books with an opaque token the issuer says is active for this resource, refuses one it does not know, and 503 while it cannot be asked', async () => {
    const oauth = await signedInHost('alice')
    expect(oauth.accessToken).not.toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const { client } = await connectBookingClient({ url: served.url, era: '2026', answer: firstChoices, authProvider: oauth })
    clients.push(client)
    expect((await client.callTool(BOOK)).structuredContent).toMatchObject({ status: 'confirmed' })

    const unknown = await post(INITIALIZE, 'a-token-the-issuer-never-gave')
    expect(unknown.status).toBe(401)
    expect((await unknown.json()).error.message).toMatch(/not active/)
    await authServer.stop()
    expect((await post(INITIALIZE, oauth.accessToken)).status).toBe(503)
    expect(logged.filter((line) => line.includes(oauth.accessToken))).toEqual([])
    expect(serverLog.lines).toEqual([expect.objectContaining({ level: 'warn', code: 'mcp_auth_introspection_failed', errorType: expect.any(String), detail: expect.stringMatching(/\S/) })])
    expect(JSON.stringify(serverLog.lines)).not.toContain(oauth.accessToken)
  })
})
