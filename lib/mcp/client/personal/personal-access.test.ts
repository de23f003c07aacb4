import { EVERYONE } from '../tool-audience'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { accountIdOf } from '../../../auth/account'
import { loginAtProvider } from '../../../auth/testing/provider-login'
import { createClientIdentity } from '../../../http'
import { createOfflineModel } from '../../../models'
import { openInScope, type InScope } from '../../../testing/in-scope'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../../../testing/oauth-authorization-server'
import { createMcpEndpoint, type McpEndpoint } from '../../server/mcp-endpoint'
import { createResourceAuth } from '../../server/resource-auth'
import { serveFetch } from '../../server/testing/serve-fetch'
import type { McpServerConfig } from '../mcp-servers-config'
import { startMcpClients } from '../start-mcp-clients'
import type { McpClients } from '../use-mcp-clients'
import type { CredentialStore } from './credential-store'
import { handleAccessRequest, type AccessApp } from './handle-access-request'
import { createPersonalAccess } from './personal-access'
import { CALLBACK_PATH, REFRESH_AHEAD_MS } from './personal-oauth'
import { createMemoryCredentialStore } from './stores/memory-store'

const APP = new URL('http://chat.test:3000')
const identity = createClientIdentity({ secret: 'y'.repeat(40) })
const opened: Array<{ close(): Promise<void> }> = []
let store: InScope<CredentialStore>
let chat: { clients: McpClients; close(): Promise<void> }
let app: AccessApp

beforeEach(async () => {
  store = await openInScope(function* () {
    return createMemoryCredentialStore()
  })
})

afterEach(async () => {
  vi.useRealTimers()
  await chat?.close()
  await store.destroy()
  for (const thing of opened.splice(0).reverse()) await thing.close()
})

async function startChat(servers: McpServerConfig[], requestTimeoutMs?: number): Promise<void> {
  const personal = createPersonalAccess({ store: store.value, secret: 'x'.repeat(40), run: store.run, appUrl: APP, ...(requestTimeoutMs ? { requestTimeoutMs } : {}) })
  chat = await startMcpClients({ config: { servers, invalid: [] }, personal })
  app = { identity, clients: chat.clients, personal, audience: EVERYONE }
}

async function settled(name: string): Promise<{ status: string; error?: string }> {
  for (;;) {
    const server = chat.clients.servers().find((info) => info.name === name)!
    if (server.status !== 'starting') return server
    await chat.clients.changed(new AbortController().signal)
  }
}

function browser(): { cookie: string; person: string } {
  const made = identity.resolve(new Request(APP))
  return { cookie: made.headers['Set-Cookie']!.split(';')[0]!, person: made.clientId }
}

function post(action: 'connect' | 'disconnect' | 'variables', who: { cookie: string }, body: unknown): Promise<Response> {
  const request = new Request(new URL(`/api/mcp-oauth/${action}`, APP), { method: 'POST', headers: { cookie: who.cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return handleAccessRequest({ app, request, endpoint: { action } })
}

async function personalStatus(person: string, name: string): Promise<string> {
  for (;;) {
    const status = (await chat.clients.serversFor(person)).find((info) => info.name === name)!.status
    if (status !== 'starting') return status
    await chat.clients.changed(new AbortController().signal)
  }
}

/** A server that answers every request with 401 and this challenge. */
async function challenging(challenge: (origin: string) => string, routes: Record<string, (origin: string) => Response> = {}) {
  const served = await serveFetch(async (request) => {
    const url = new URL(request.url)
    const route = routes[url.pathname]
    if (route) return route(url.origin)
    return new Response('{"error":"unauthorized"}', { status: 401, headers: { 'www-authenticate': challenge(url.origin), 'content-type': 'application/json' } })
  })
  opened.push(served)
  return served.url
}

describe('discovery that the chat refuses, and authorization servers that answer junk', () => {
  it('refuses a resource_metadata on another origin than the server: the server is failed, saying why, and nobody is sent anywhere', async () => {
    const url = await challenging(() => 'Bearer resource_metadata="http://evil.test/.well-known/oauth-protected-resource"')
    await startChat([{ name: 'tricky', transport: 'http', url, headers: {} }])
    expect(await settled('tricky')).toMatchObject({ status: 'failed', error: expect.stringContaining('another origin than its own') })
    const refused = await post('connect', browser(), { server: 'tricky' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: { code: 'not_personal' } })
  })

  it('answers Connect with 502 authorization_failed when the authorization server answers junk, and stays up', async () => {
    const url = await challenging((origin) => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/api/mcp"`, {
      '/.well-known/oauth-protected-resource/api/mcp': (origin) => Response.json({ resource: `${origin}/api/mcp`, authorization_servers: [`${origin}/as`] }),
      '/.well-known/oauth-authorization-server/as': () => new Response('<html>not metadata</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      '/.well-known/openid-configuration/as': () => new Response('<html>not metadata</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      '/as/.well-known/openid-configuration': () => Response.json({ issuer: 'somebody else' }),
    })
    await startChat([{ name: 'junk', transport: 'http', url, headers: {} }])
    expect(await settled('junk')).toMatchObject({ status: 'needs_connect' })
    const refused = await post('connect', browser(), { server: 'junk' })
    expect(refused.status).toBe(502)
    expect(await refused.json()).toMatchObject({ error: { code: 'authorization_failed', message: expect.stringMatching(/^Connecting to junk failed at its authorization server: /) } })
    expect(chat.clients.servers()[0]!.status).toBe('needs_connect')
  })
})

describe('an authorization server that does not answer', () => {
  it('fails Connect with 502 authorization_failed once its request times out; the server and the chat stay up', async () => {
    const silent = await serveFetch((request) => new Promise<Response>((resolve) => request.signal.addEventListener('abort', () => resolve(new Response(null, { status: 499 })))))
    opened.push(silent)
    const url = await challenging((origin) => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/api/mcp"`, {
      '/.well-known/oauth-protected-resource/api/mcp': (origin) => Response.json({ resource: `${origin}/api/mcp`, authorization_servers: [silent.url.origin] }),
    })
    await startChat([{ name: 'slow', transport: 'http', url, headers: {} }], 1_000)
    expect(await settled('slow')).toMatchObject({ status: 'needs_connect' })
    const refused = await post('connect', browser(), { server: 'slow' })
    expect(refused.status).toBe(502)
    expect(await refused.json()).toMatchObject({ error: { code: 'authorization_failed', message: expect.stringContaining('failed at its authorization server') } })
    expect(chat.clients.servers()[0]!.status).toBe('needs_connect')
  })
})

describe("an entry's userVariables", () => {
  let endpoint: McpEndpoint
  beforeEach(async () => {
    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 's'.repeat(40), authToken: 'alice-own-key-0123456789' })
    opened.push({ close: () => endpoint.close() })
  })

  it('are asked of each person once, kept for them alone, put into the headers, and forgotten on Disconnect', async () => {
    const served = await serveFetch((request) => endpoint.handle(request))
    opened.push(served)
    await startChat([
      { name: 'keyed', transport: 'http', url: served.url, headers: { Authorization: 'Bearer ${KEY}' }, userVariables: { KEY: { title: 'Your API key' } } },
    ])
    expect(chat.clients.servers()).toEqual([{ name: 'keyed', status: 'needs_connect', connect: { kind: 'variables', variables: { KEY: { title: 'Your API key' } } } }])
    const alice = browser()
    const bob = browser()
    for (const [values, why] of [
      [{}, /Your API key \(KEY\) is missing/],
      [{ KEY: 'a\r\nX-Other: 1' }, /must be on one line/],
      [{ KEY: 'k', OTHER: 'x' }, /OTHER is not among keyed's userVariables/],
    ] as const) {
      const refused = await post('variables', alice, { server: 'keyed', values })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ error: { code: 'invalid_variables', message: expect.stringMatching(why) } })
    }
    expect((await post('variables', alice, { server: 'keyed', values: { KEY: 'alice-own-key-0123456789' } })).status).toBe(200)
    expect(await personalStatus(alice.person, 'keyed')).toBe('ready')
    expect(await personalStatus(bob.person, 'keyed')).toBe('needs_connect')
    // A wrong key is the server's refusal, for that person only.
    expect((await post('variables', bob, { server: 'keyed', values: { KEY: 'wrong' } })).status).toBe(200)
    expect(await personalStatus(bob.person, 'keyed')).not.toBe('ready')
    expect(await personalStatus(alice.person, 'keyed')).toBe('ready')
    expect((await post('disconnect', alice, { server: 'keyed' })).status).toBe(200)
    expect(await personalStatus(alice.person, 'keyed')).toBe('needs_connect')
  })
})

describe('tokens that lapse', () => {
  it('are refreshed before they lapse, with the refresh token, and the person stays connected', async () => {
    const served = await serveFetch((request) =>
      new URL(request.url).pathname.startsWith('/.well-known/oauth-protected-resource') ? Promise.resolve(resourceAuth.metadataResponse()) : endpoint.handle(request),
    )
    opened.push(served)
    const authServer: TestAuthorizationServer = await startTestAuthorizationServer({ resource: served.url.href, scopes: ['mcp:use'] })
    opened.push({ close: () => authServer.stop() })
    const resourceAuth = createResourceAuth({ issuer: authServer.issuer, resource: served.url.href, scopes: ['mcp:use'], principalOf: accountIdOf })
    const endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 's'.repeat(40), resourceAuth })
    opened.push({ close: () => endpoint.close() })
    const server = { name: 'remote', transport: 'http' as const, url: served.url, headers: {} }
    await startChat([server])
    expect(await settled('remote')).toMatchObject({ status: 'needs_connect' })
    const alice = browser()
    const { authorizationUrl } = (await (await post('connect', alice, { server: 'remote' })).json()) as { authorizationUrl: string }
    const back = await loginAtProvider(authorizationUrl, 'alice', { redirectUriPrefix: new URL(CALLBACK_PATH, APP).href })
    await handleAccessRequest({ app, request: new Request(back, { headers: { cookie: alice.cookie } }), endpoint: { action: 'callback' } })
    const first = await app.personal!.oauth.accessToken({ person: alice.person, server })
    expect(await app.personal!.oauth.accessToken({ person: alice.person, server })).toBe(first)
    // The test's clock (Date only: the servers' sockets keep real time) moves to just inside the refresh margin of the 600 s token.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 600_000 - REFRESH_AHEAD_MS + 1_000 })
    const refreshed = await app.personal!.oauth.accessToken({ person: alice.person, server })
    expect(refreshed).toMatch(/^ey/)
    expect(refreshed).not.toBe(first)
    expect(await personalStatus(alice.person, 'remote')).toBe('ready')
  })
})
