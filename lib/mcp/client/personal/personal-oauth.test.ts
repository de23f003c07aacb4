import { EVERYONE } from '../tool-audience'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallToolResult, ElicitRequestParams } from '@modelcontextprotocol/client'
import { run } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { accountIdOf, createAccountIdentity, createIdentityProvider, createMemoryAuthStore, createSignIn, KEEP_CONNECTIONS_FIELD } from '../../../auth'
import { loginAtProvider } from '../../../auth/testing/provider-login'
import { createClientIdentity, parsePeopleList, type ClientIdentityResolver } from '../../../http'
import { createOfflineModel } from '../../../models'
import { openInScope, type InScope } from '../../../testing/in-scope'
import { startTestOidcProvider } from '../../../testing/oidc-provider'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../../../testing/oauth-authorization-server'
import { createMcpEndpoint, type McpEndpoint } from '../../server/mcp-endpoint'
import { createResourceAuth, type ResourceAuth } from '../../server/resource-auth'
import { firstChoices } from '../../server/testing/booking-client'
import { serveFetch } from '../../server/testing/serve-fetch'
import { RELATED_CALL } from '../related-calls'
import type { McpServerConnection } from '../server-connection'
import { createChatServer } from '../../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from '../../../engine/testing/chat-test-client'
import { createMemorySessionStore } from '../../../sessions'
import type { PluginElicitRequestEvent } from '../../../protocol/events'
import { EXTERNAL_QUESTION } from '../external-questions'
import { createServerToolSource } from '../server-tool-source'
import { startMcpClients } from '../start-mcp-clients'
import type { McpClients } from '../use-mcp-clients'
import { disconnectEveryServer } from './disconnect-person'
import { handleAccessRequest, type AccessApp } from './handle-access-request'
import { createPersonalAccess } from './personal-access'
import { CALLBACK_PATH } from './personal-oauth'
import { useEmbeddedCredentialStore } from './stores/embedded-store'
import type { CredentialStore } from './credential-store'
import { recordConsoleLines } from '../../../testing/console-lines'

const SCOPES = ['tools:book_train', 'mcp:use']
const APP = new URL('http://chat.test:3000')
const CHAT_SECRET = 'y'.repeat(40)

let remote: { url: URL; close(): Promise<void> }
let endpoint: McpEndpoint
let authServer: TestAuthorizationServer
let resourceAuth: ResourceAuth
let dataDir: string
let store: InScope<CredentialStore>
let chat: { clients: McpClients; close(): Promise<void> }
let identity: ClientIdentityResolver
let app: AccessApp
let logged: string[]

beforeEach(async () => {
  logged = recordConsoleLines()
  // The remote MCP server: our own /api/mcp, protected by a real authorization server.
  remote = await serveFetch((request) =>
    new URL(request.url).pathname.startsWith('/.well-known/oauth-protected-resource') ? Promise.resolve(resourceAuth.metadataResponse()) : endpoint.handle(request),
  )
  authServer = await startTestAuthorizationServer({ resource: remote.url.href, scopes: SCOPES })
  resourceAuth = createResourceAuth({ issuer: authServer.issuer, resource: remote.url.href, scopes: SCOPES, principalOf: accountIdOf })
  endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 's'.repeat(40), resourceAuth })
  // The chat, as its server runs it: its credentials sealed in an embedded store under DATA_DIR.
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-credentials-'))
  store = await openInScope(() => useEmbeddedCredentialStore({ directory: dataDir }))
  const personal = createPersonalAccess({ store: store.value, secret: 'x'.repeat(40), run: store.run, appUrl: APP })
  chat = await startMcpClients({ config: { servers: [{ name: 'remote', transport: 'http', url: remote.url, headers: {} }], invalid: [] }, personal })
  identity = createClientIdentity({ secret: CHAT_SECRET })
  app = { identity, clients: chat.clients, personal, audience: EVERYONE }
})

afterEach(async () => {
  await chat.close()
  await store.destroy()
  rmSync(dataDir, { recursive: true, force: true })
  await remote.close()
  await endpoint.close()
  await authServer.stop().catch(() => {})
  vi.restoreAllMocks()
})

/** A browser of its own: its identity cookie. */
function browser(): { cookie: string; person: string } {
  const made = identity.resolve(new Request(APP))
  return { cookie: made.headers['Set-Cookie']!.split(';')[0]!, person: made.clientId }
}

function post(action: 'connect' | 'disconnect' | 'variables', who: { cookie: string }, body: unknown): Promise<Response> {
  const request = new Request(new URL(`/api/mcp-oauth/${action}`, APP), {
    method: 'POST',
    headers: { cookie: who.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify(body),
  })
  return handleAccessRequest({ app, request, endpoint: { action } })
}

function callback(url: URL, who: { cookie: string }): Promise<Response> {
  return handleAccessRequest({ app, request: new Request(url, { headers: { cookie: who.cookie } }), endpoint: { action: 'callback' } })
}

/** Until `check` holds of the clients, waiting on their status changes (never a timer). */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    await chat.clients.changed(new AbortController().signal)
  }
}

async function statusFor(person: string): Promise<string | undefined> {
  return (await chat.clients.serversFor(person)).find(({ name }) => name === 'remote')?.status
}

/** Connect as a person does: Connect, sign in at the authorization server, come back through the callback. */
async function connect(who: { cookie: string }, login: string): Promise<{ authorizationUrl: URL; back: URL; response: Response }> {
  const started = await post('connect', who, { server: 'remote', returnTo: '/c/abc' })
  expect(started.status).toBe(200)
  const authorizationUrl = new URL(((await started.json()) as { authorizationUrl: string }).authorizationUrl)
  const back = await loginAtProvider(authorizationUrl.href, login, { redirectUriPrefix: new URL(CALLBACK_PATH, APP).href })
  return { authorizationUrl, back, response: await callback(back, who) }
}

/** Book a train through a person's own connection, answering its questions with their first choices. */
async function bookThrough(connection: McpServerConnection): Promise<CallToolResult> {
  const call = connection.openCall({
    elicit: async (params: ElicitRequestParams) => firstChoices({ schema: (params as { requestedSchema: Record<string, unknown> }).requestedSchema }),
    // The chat's model would answer the server's sampling request; the test's person writes the tip.
    sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'Arrive early.' }, model: 'the-person' }),
    log: () => {},
  })
  try {
    return (await connection.client!.callTool({ name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' }, _meta: { [RELATED_CALL]: call.id } })) as CallToolResult
  } finally {
    call.close()
  }
}

describe('the chat as an OAuth client of a remote MCP server, per person', () => {
  it('shows a server that answers 401 with resource_metadata as needing each person to connect; alice connects, books, disconnects and reconnects; bob never gets her access', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    expect(chat.clients.servers()).toEqual([{ name: 'remote', status: 'needs_connect', connect: { kind: 'oauth' } }])
    const alice = browser()
    const bob = browser()
    expect(await statusFor(alice.person)).toBe('needs_connect')

    const { authorizationUrl, back, response } = await connect(alice, 'alice')
    // Authorization code with PKCE (S256), for this resource (RFC 8707), back to the chat's callback.
    expect(authorizationUrl.origin).toBe(authServer.issuer)
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: remote.url.href,
      redirect_uri: new URL(CALLBACK_PATH, APP).href,
    })
    expect(authorizationUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/c/abc?mcp_connected=remote')

    const aliceConnection = await until(async () => ((await statusFor(alice.person)) === 'ready' ? chat.clients.personalConnection('remote', alice.person) : undefined))
    expect(aliceConnection!.tools.map((tool) => tool.name)).toContain('book_train')
    const booked = await bookThrough(aliceConnection!)
    expect(booked.isError).toBeFalsy()
    expect(booked.structuredContent).toMatchObject({ status: 'confirmed' })
    // The model is offered the remote's tools in alice's turns only, called through her connection.
    const source = createServerToolSource({ clients: chat.clients })
    expect(source.list(alice.person).map((tool) => tool.tool.name)).toContain('remote__book_train')
    expect(source.list(bob.person).map((tool) => tool.tool.name)).not.toContain('remote__book_train')
    expect(source.list().map((tool) => tool.tool.name)).not.toContain('remote__book_train')
    expect(source.get('remote__book_train', alice.person)?.origin).toEqual({ server: 'remote', tool: 'book_train' })
    // Bob's name for it is no tool of his connection: a call of it asks him to connect first.
    expect(source.get('remote__book_train', bob.person)).not.toBe(source.get('remote__book_train', alice.person))
    // Bob's view is his own: he has not connected.
    expect(await statusFor(bob.person)).toBe('needs_connect')
    expect(await chat.clients.personalConnection('remote', bob.person)).toBeUndefined()

    // The code cannot be used twice: the flow its state named is gone.
    const replayed = await callback(back, alice)
    expect(replayed.status).toBe(400)
    expect(await replayed.json()).toMatchObject({ error: { code: 'unknown_authorization' } })

    const disconnected = await post('disconnect', alice, { server: 'remote' })
    expect(disconnected.status).toBe(200)
    expect(await disconnected.json()).toEqual({ server: 'remote', disconnected: true, revoked: true })
    expect(await statusFor(alice.person)).toBe('needs_connect')

    await connect(alice, 'alice')
    const again = await until(async () => ((await statusFor(alice.person)) === 'ready' ? chat.clients.personalConnection('remote', alice.person) : undefined))
    expect((await bookThrough(again!)).isError).toBeFalsy()
  })

  it('keeps tokens sealed at rest and out of every response and log line', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    const alice = browser()
    const { response } = await connect(alice, 'alice')
    const connection = await until(async () => ((await statusFor(alice.person)) === 'ready' ? chat.clients.personalConnection('remote', alice.person) : undefined))
    const token = await app.personal!.oauth.accessToken({ person: alice.person, server: { name: 'remote', url: remote.url } })
    expect(token).toMatch(/^ey/)
    expect(await bookThrough(connection!)).toMatchObject({ structuredContent: { status: 'confirmed' } })
    const onDisk = readdirSync(dataDir)
      .map((file) => readFileSync(join(dataDir, file)).toString('latin1'))
      .join('')
    expect(onDisk).not.toContain(token!)
    expect(onDisk).not.toContain(token!.split('.')[1]!)
    const answers = [await response.text(), response.headers.get('location') ?? '', JSON.stringify(await chat.clients.serversFor(alice.person))]
    expect(answers.filter((text) => text.includes(token!))).toEqual([])
    expect(logged.filter((line) => line.includes(token!))).toEqual([])
  })

  it('refuses a callback with a state it never gave, and one that reaches another browser than the one that pressed Connect', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    const alice = browser()
    const mallory = browser()
    const forged = await callback(new URL(`${CALLBACK_PATH}?code=abc&state=not-a-state-we-gave`, APP), alice)
    expect(forged.status).toBe(400)
    expect(await forged.json()).toMatchObject({ error: { code: 'unknown_authorization', message: expect.stringMatching(/unknown/) } })

    const started = await post('connect', alice, { server: 'remote' })
    const { authorizationUrl } = (await started.json()) as { authorizationUrl: string }
    const back = await loginAtProvider(authorizationUrl, 'alice', { redirectUriPrefix: new URL(CALLBACK_PATH, APP).href })
    const stolen = await callback(back, mallory)
    expect(stolen.status).toBe(403)
    expect(await stolen.json()).toMatchObject({ error: { code: 'not_your_authorization' } })
    expect(await statusFor(mallory.person)).toBe('needs_connect')
    expect(await statusFor(alice.person)).toBe('needs_connect')
  })

  it('says what is wrong with a request to connect: no such server, not JSON, another site', async () => {
    const alice = browser()
    const unknown = await post('connect', alice, { server: 'nope' })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { code: 'unknown_server' } })
    const junk = await post('connect', alice, { server: 'remote', extra: 1 })
    expect(junk.status).toBe(400)
    const crossSite = await handleAccessRequest({
      app,
      request: new Request(new URL('/api/mcp-oauth/connect', APP), { method: 'POST', headers: { cookie: alice.cookie, 'sec-fetch-site': 'cross-site' }, body: '{"server":"remote"}' }),
      endpoint: { action: 'connect' },
    })
    expect(crossSite.status).toBe(403)
  })
})

describe('a call of a server the person has not connected', () => {
  it('waits in its card as "Connect remote to go on": declining is a result the model reads; after connecting, Go on runs the call once', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    const server = await createChatServer({
      model: createOfflineModel({ delayMs: 0 }),
      tools: [],
      externalTools: createServerToolSource({ clients: chat.clients }),
      secret: CHAT_SECRET,
      // eslint-disable-next-line require-yield
      useStore: function* () {
        return createMemorySessionStore()
      },
    })
    try {
      const browserOf = createChatTestClient({ chat: server, identity })
      const args = { from: 'Paris', to: 'Lyon' }
      const book = () => browserOf.post({ messages: [{ role: 'user', content: `/remote__book_train ${JSON.stringify(args)}` }], directToolCall: { name: 'remote__book_train', arguments: args } })
      const contextOf = (request: PluginElicitRequestEvent) => request.context

      const first = await book()
      const [asked] = elicitRequests(first.events)
      expect(asked).toMatchObject({ key: EXTERNAL_QUESTION.connect, message: expect.stringContaining('Connect remote to go on') })
      expect(contextOf(asked!)).toEqual({ server: 'remote', kind: 'oauth' })
      const declined = await browserOf.answer([{ request: asked!, result: { action: 'decline' } }])
      expect(JSON.parse(eventsOf(declined.events, 'tool_result')[0]!.content).content[0].text).toBe('The person did not connect remote, which book_train needs; book_train was not called.')

      const second = await book()
      const [again] = elicitRequests(second.events)
      expect(again!.key).toBe(EXTERNAL_QUESTION.connect)
      // The person presses Connect in the card, signs in, and comes back.
      const who = { cookie: browserOf.cookie! }
      const connected = (await connect(who, 'alice')).response
      expect(connected.status, await connected.clone().text()).toBe(303)
      let turn = await browserOf.answer([{ request: again!, result: { action: 'accept', content: {} } }])
      const keys: string[] = []
      for (let step = 0; step < 12 && eventsOf(turn.events, 'tool_result').length === 0; step++) {
        const [question] = elicitRequests(turn.events)
        expect(question, JSON.stringify(turn.events.slice(-3))).toBeDefined()
        keys.push(question!.key)
        const result =
          question!.key === EXTERNAL_QUESTION.approval
            ? { action: 'accept' as const, content: { scope: 'once' } }
            : question!.key === EXTERNAL_QUESTION.form
              ? firstChoices({ schema: contextOf(question!).requestedSchema as Record<string, unknown> })
              : { action: 'accept' as const, content: {} }
        turn = await browserOf.answer([{ request: question!, result }])
      }
      // A typed command is its own approval; after Go on, only the remote's own questions (and its sampling request) come.
      expect(keys).toEqual([EXTERNAL_QUESTION.form, EXTERNAL_QUESTION.form, EXTERNAL_QUESTION.sampling])
      expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content).structuredContent).toMatchObject({ status: 'confirmed' })
    } finally {
      await server.close()
    }
  })
})

describe('signing out of the chat', () => {
  it('disconnects the person from every server that asks each person to connect (its grant revoked at the authorization server), unless they tick "keep"', async () => {
    await until(async () => (chat.clients.servers()[0]!.status === 'needs_connect' ? true : undefined))
    const appUrl = 'http://127.0.0.1:3999'
    const op = await startTestOidcProvider({ redirectUris: [`${appUrl}/auth/callback`] })
    try {
      const signIn = createSignIn({
        policy: { appUrl, allowed: parsePeopleList({ emails: '@example.com' }), admins: parsePeopleList({}), sessionMaxAgeMs: 3_600_000, recheckAfterMs: 60_000 },
        provider: createIdentityProvider({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, groupsClaim: 'groups' }),
        store: createMemoryAuthStore(),
        run: (operation) => run(operation),
        secret: CHAT_SECRET,
        // As the app wires it (lib/server/sign-in-instance.ts).
        forget: (account) => disconnectEveryServer({ personal: app.personal, clients: chat.clients, person: account }),
      })
      // The account is who connects, as with sign-in on.
      const signedInApp: AccessApp = { ...app, identity: createAccountIdentity(signIn) }
      const alice = accountIdOf(op.issuer, 'alice')
      const signInAlice = async (): Promise<string> => {
        const started = await signIn.start(new Request(`${appUrl}/auth/sign-in?next=/`))
        const flow = started.headers.getSetCookie().find((line) => line.startsWith('chat_sign_in='))!.split(';')[0]!
        const back = await loginAtProvider(started.headers.get('location')!, 'alice', { redirectUriPrefix: `${appUrl}/auth/callback` })
        const done = await signIn.callback(new Request(back, { headers: { cookie: flow } }))
        return done.headers.getSetCookie().find((line) => line.startsWith('chat_session='))!.split(';')[0]!
      }
      const connectAlice = async (session: string) => {
        const started = await handleAccessRequest({
          app: signedInApp,
          request: new Request(new URL('/api/mcp-oauth/connect', APP), { method: 'POST', headers: { cookie: session, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: '{"server":"remote"}' }),
          endpoint: { action: 'connect' },
        })
        const { authorizationUrl } = (await started.json()) as { authorizationUrl: string }
        const back = await loginAtProvider(authorizationUrl, 'alice', { redirectUriPrefix: new URL(CALLBACK_PATH, APP).href })
        expect((await handleAccessRequest({ app: signedInApp, request: new Request(back, { headers: { cookie: session } }), endpoint: { action: 'callback' } })).status).toBe(303)
        await until(async () => ((await statusFor(alice)) === 'ready' ? true : undefined))
      }
      const signOut = (session: string, form: string) =>
        signIn.signOut(new Request(`${appUrl}/auth/sign-out`, { method: 'POST', headers: { cookie: session, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' }, body: form }))

      // Kept: signed out and in again, still connected; nothing revoked.
      let session = await signInAlice()
      await connectAlice(session)
      expect((await signOut(session, `${KEEP_CONNECTIONS_FIELD}=on`)).headers.get('location')).toBe(`${appUrl}/auth/signed-out`)
      expect(await statusFor(alice)).toBe('ready')
      expect(authServer.revokedGrants()).toBe(0)

      // A body no sign-out form sends is refused before anything is forgotten or ended.
      session = await signInAlice()
      const junk = await signOut(session, 'x'.repeat(2048)).catch((error: unknown) => error)
      expect(junk).toMatchObject({ code: 'body_too_large' })
      expect(await statusFor(alice)).toBe('ready')
      expect(await signIn.account(new Request(`${appUrl}/api/chats`, { headers: { cookie: session } }))).toMatchObject({ id: alice })

      // The default: the grant revoked at the authorization server, the tokens forgotten, the connection ended.
      expect((await signOut(session, '')).headers.get('location')).toBe(`${appUrl}/auth/signed-out`)
      expect(authServer.revokedGrants()).toBe(1)
      expect(await app.personal!.oauth.connected({ person: alice, server: 'remote' })).toBe(false)
      expect(await statusFor(alice)).toBe('needs_connect')
      expect(await signIn.account(new Request(`${appUrl}/api/chats`, { headers: { cookie: session } }))).toBeUndefined()
    } finally {
      await op.stop()
    }
  })
})
