import { loginAtProvider } from '../../auth/testing/provider-login'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClientIdentity, peopleListOf, type Person } from '../../http'
import { openInScope, type InScope } from '../../testing/in-scope'
import { createPersonalAccess, createMemoryCredentialStore, type CredentialStore } from '../client/personal'
import { personalConnectFlow } from '../client/personal/testing/connect-flow'
import { startMcpClients } from '../client/start-mcp-clients'
import { startOAuthSseServer, WHOAMI_APP_HTML, WHOAMI_APP_URI, type OAuthSseServer } from '../client/testing/oauth-sse-server'
import { createToolAudience, EVERYONE } from '../client/tool-audience'
import type { McpClients } from '../client/use-mcp-clients'
import { clientsAppSource } from './clients-source'
import { createMcpAppsHost, type McpAppsHost } from './mcp-apps-host'
import { appFailure } from './testing/app-failure'

// An MCP App of a server each person connects to (here a legacy SSE server behind OAuth) reads its
// resource and calls its server's tools through the asking person's own connection, with their
// token; someone who has not connected, or whom the entry's `users` leave out, is refused.

const APP = new URL('http://chat.test:3000')
const person = (email: string): Person => ({ email, emailVerified: true, groups: [], isAdmin: false })
const ALICE = person('alice@example.com')
const BOB = person('bob@example.com')
const CAROL = person('carol@other.org')

let remote: OAuthSseServer
let store: InScope<CredentialStore>
let chat: { clients: McpClients; close(): Promise<void> }
let host: McpAppsHost
let flow: ReturnType<typeof personalConnectFlow>

beforeEach(async () => {
  remote = await startOAuthSseServer()
  // eslint-disable-next-line require-yield
  store = await openInScope(function* () {
    return createMemoryCredentialStore()
  })
  const personal = createPersonalAccess({ store: store.value, secret: 'x'.repeat(40), run: store.run, appUrl: APP })
  const config = { servers: [{ name: 'legacy', transport: 'sse' as const, url: remote.url, headers: {}, users: peopleListOf(['@example.com']) }], invalid: [] }
  chat = await startMcpClients({ config, personal })
  const identity = createClientIdentity({ secret: 'y'.repeat(40) })
  // The access routes' own check of `users` is theirs (personal-access.test.ts); here the app's.
  flow = personalConnectFlow({ app: { identity, clients: chat.clients, personal, audience: EVERYONE }, identity, appUrl: APP, login: loginAtProvider })
  host = createMcpAppsHost({ source: clientsAppSource(chat.clients), audience: createToolAudience({ config, signIn: true }), secret: 's'.repeat(32) })
  await flow.needsConnect('legacy')
})

afterEach(async () => {
  await chat.close()
  await store.destroy()
  await remote.close()
})

const textOf = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]!.text

describe("an MCP App of a server each person connects to", () => {
  it("runs on the person's own connection: alice's app calls with her token, bob's with his; nobody else's connection is used", async () => {
    const alice = flow.browser()
    const bob = flow.browser()
    // Before connecting: no app, in words the chat can show.
    expect(await appFailure(host.openApp({ clientId: alice.person, person: ALICE, server: 'legacy', tool: 'whoami' }))).toMatchObject({
      code: 'not_connected',
      status: 403,
      message: expect.stringContaining('You have not connected "legacy"'),
    })

    await flow.connectAs('legacy', alice, 'alice')
    const hers = await host.openApp({ clientId: alice.person, person: ALICE, server: 'legacy', tool: 'whoami' })
    expect(hers.uri).toBe(WHOAMI_APP_URI)
    expect(await (await host.serveFrame({ clientId: alice.person, person: ALICE, ticket: hers.src.split('/').at(-1)! })).text()).toBe(WHOAMI_APP_HTML)
    expect(textOf(await host.callTool({ clientId: alice.person, person: ALICE, bridgeTicket: hers.bridgeTicket, name: 'whoami', arguments: {} }))).toBe('signed in as alice')

    // Bob has not connected: his app is refused, even though alice's connection is up.
    expect(await appFailure(host.openApp({ clientId: bob.person, person: BOB, server: 'legacy', tool: 'whoami' }))).toMatchObject({ code: 'not_connected' })
    await flow.connectAs('legacy', bob, 'bob')
    const his = await host.openApp({ clientId: bob.person, person: BOB, server: 'legacy', tool: 'whoami' })
    expect(textOf(await host.callTool({ clientId: bob.person, person: BOB, bridgeTicket: his.bridgeTicket, name: 'whoami', arguments: {} }))).toBe('signed in as bob')
    expect(textOf(await host.callTool({ clientId: alice.person, person: ALICE, bridgeTicket: hers.bridgeTicket, name: 'whoami', arguments: {} }))).toBe('signed in as alice')

    // Alice disconnects: the app she still shows can no longer call, and says why.
    expect((await flow.post('disconnect', alice, { server: 'legacy' })).status).toBe(200)
    expect(await appFailure(host.callTool({ clientId: alice.person, person: ALICE, bridgeTicket: hers.bridgeTicket, name: 'whoami', arguments: {} }))).toMatchObject({ code: 'not_connected' })
    expect(await appFailure(host.serveFrame({ clientId: alice.person, person: ALICE, ticket: hers.src.split('/').at(-1)! }))).toMatchObject({ code: 'not_connected' })
    expect(textOf(await host.callTool({ clientId: bob.person, person: BOB, bridgeTicket: his.bridgeTicket, name: 'whoami', arguments: {} }))).toBe('signed in as bob')
  })

  it("refuses someone the entry's users leave out, connected or not", async () => {
    const carol = flow.browser()
    expect(await appFailure(host.openApp({ clientId: carol.person, person: CAROL, server: 'legacy', tool: 'whoami' }))).toMatchObject({ code: 'tool_not_allowed', status: 403 })
    await flow.connectAs('legacy', carol, 'carol')
    expect(await appFailure(host.openApp({ clientId: carol.person, person: CAROL, server: 'legacy', tool: 'whoami' }))).toMatchObject({ code: 'tool_not_allowed' })
  })
})
