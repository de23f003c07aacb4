import type { CallToolResult } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loginAtProvider } from '../../../auth/testing/provider-login'
import { createClientIdentity, type ClientIdentityResolver } from '../../../http'
import { startOAuthSseServer, type OAuthSseServer } from '../testing/oauth-sse-server'
import { startMcpClients } from '../start-mcp-clients'
import { EVERYONE } from '../tool-audience'
import type { McpClients } from '../use-mcp-clients'
import { handleAccessRequest, type AccessApp } from './handle-access-request'
import { createPersonalAccess } from './personal-access'
import { CALLBACK_PATH } from './personal-oauth'
import { createMemoryCredentialStore } from './stores/memory-store'
import { openInScope, type InScope } from '../../../testing/in-scope'
import type { CredentialStore } from './credential-store'

// An `mcp.json` entry of `"type": "sse"` (the 2024-11-05 HTTP+SSE transport) for a server behind
// OAuth gets what a Streamable HTTP one gets: "needs you to connect", Connect, and each person's
// own connection with their own token, on its event stream and on every message.

const APP = new URL('http://chat.test:3000')

let remote: OAuthSseServer
let store: InScope<CredentialStore>
let chat: { clients: McpClients; close(): Promise<void> }
let identity: ClientIdentityResolver
let app: AccessApp
let logged: string[]

beforeEach(async () => {
  logged = []
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level]
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '))
      original(...args)
    })
  }
  remote = await startOAuthSseServer()
  // eslint-disable-next-line require-yield
  store = await openInScope(function* () {
    return createMemoryCredentialStore()
  })
  const personal = createPersonalAccess({ store: store.value, secret: 'x'.repeat(40), run: store.run, appUrl: APP })
  chat = await startMcpClients({ config: { servers: [{ name: 'legacy', transport: 'sse', url: remote.url, headers: {} }], invalid: [] }, personal })
  identity = createClientIdentity({ secret: 'y'.repeat(40) })
  app = { identity, clients: chat.clients, personal, audience: EVERYONE }
})

afterEach(async () => {
  await chat.close()
  await store.destroy()
  await remote.close()
  vi.restoreAllMocks()
})

function browser(): { cookie: string; person: string } {
  const made = identity.resolve(new Request(APP))
  return { cookie: made.headers['Set-Cookie']!.split(';')[0]!, person: made.clientId }
}

function post(action: 'connect' | 'disconnect', who: { cookie: string }, body: unknown): Promise<Response> {
  const request = new Request(new URL(`/api/mcp-oauth/${action}`, APP), {
    method: 'POST',
    headers: { cookie: who.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify(body),
  })
  return handleAccessRequest({ app, request, endpoint: { action } })
}

/** Until `check` holds, waiting on the clients' status changes (never a timer). */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    await chat.clients.changed(new AbortController().signal)
  }
}

const statusFor = async (person: string) => (await chat.clients.serversFor(person)).find(({ name }) => name === 'legacy')?.status

/** Connect, sign in at the authorization server's own pages, come back through the callback; then the person's connection once it is up. */
async function connectAs(who: { cookie: string; person: string }, login: string) {
  const started = await post('connect', who, { server: 'legacy' })
  expect(started.status).toBe(200)
  const authorizationUrl = new URL(((await started.json()) as { authorizationUrl: string }).authorizationUrl)
  expect(authorizationUrl.searchParams.get('resource')).toBe(remote.url.href)
  const back = await loginAtProvider(authorizationUrl.href, login, { redirectUriPrefix: new URL(CALLBACK_PATH, APP).href })
  const finished = await handleAccessRequest({ app, request: new Request(back, { headers: { cookie: who.cookie } }), endpoint: { action: 'callback' } })
  expect(finished.status, await finished.clone().text()).toBe(303)
  return until(async () => ((await statusFor(who.person)) === 'ready' ? chat.clients.personalConnection('legacy', who.person) : undefined))
}

describe('an "sse" server behind OAuth', () => {
  it('needs each person to connect; alice and bob each connect and call it with their own token; after Disconnect alice must connect again', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    expect(chat.clients.servers()).toEqual([{ name: 'legacy', status: 'needs_connect', connect: { kind: 'oauth' } }])
    // Its challenge pointed at its own metadata, which names the authorization server.
    expect(chat.clients.connection('legacy')!.challenge?.resourceMetadataUrl?.href).toBe(`${remote.url.origin}/.well-known/oauth-protected-resource/sse`)
    const alice = browser()
    const bob = browser()
    expect(await statusFor(alice.person)).toBe('needs_connect')

    const hers = (await connectAs(alice, 'alice'))!
    expect(hers.tools.map((tool) => tool.name)).toEqual(['whoami'])
    const whoami = async (person: string) => ((await chat.clients.runningPersonal('legacy', person)!.client!.callTool({ name: 'whoami' })) as CallToolResult).content
    expect(await whoami(alice.person)).toEqual([{ type: 'text', text: 'signed in as alice' }])
    expect(await statusFor(bob.person)).toBe('needs_connect')
    expect(chat.clients.personalTools(bob.person)).toEqual([])

    await connectAs(bob, 'bob')
    expect(await whoami(bob.person)).toEqual([{ type: 'text', text: 'signed in as bob' }])
    expect(await whoami(alice.person)).toEqual([{ type: 'text', text: 'signed in as alice' }])

    const disconnected = await post('disconnect', alice, { server: 'legacy' })
    expect(await disconnected.json()).toEqual({ server: 'legacy', disconnected: true, revoked: true })
    expect(await statusFor(alice.person)).toBe('needs_connect')
    expect(chat.clients.runningPersonal('legacy', alice.person)).toBeUndefined()
    expect(await whoami(bob.person)).toEqual([{ type: 'text', text: 'signed in as bob' }])

    const token = await app.personal!.oauth.accessToken({ person: bob.person, server: { name: 'legacy', url: remote.url } })
    expect(token).toMatch(/^ey/)
    expect(logged.filter((line) => line.includes(token!))).toEqual([])
  })

})
