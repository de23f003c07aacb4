import { loginAtProvider } from '../../../auth/testing/provider-login'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClientIdentity, type ClientIdentityResolver } from '../../../http'
import { startOAuthSseServer, type OAuthSseServer } from '../testing/oauth-sse-server'
import { startMcpClients } from '../start-mcp-clients'
import { EVERYONE } from '../tool-audience'
import type { McpClients } from '../use-mcp-clients'
import type { AccessApp } from './handle-access-request'
import { createPersonalAccess } from './personal-access'
import { personalConnectFlow } from './testing/connect-flow'
import { createMemoryCredentialStore } from './stores/memory-store'
import { openInScope, type InScope } from '../../../testing/in-scope'
import type { CredentialStore } from './credential-store'
import { recordConsoleLines } from '../../../testing/console-lines'

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
let flow: ReturnType<typeof personalConnectFlow>

beforeEach(async () => {
  logged = recordConsoleLines()
  remote = await startOAuthSseServer()
  // eslint-disable-next-line require-yield
  store = await openInScope(function* () {
    return createMemoryCredentialStore()
  })
  const personal = createPersonalAccess({ store: store.value, secret: 'x'.repeat(40), run: store.run, appUrl: APP })
  chat = await startMcpClients({ config: { servers: [{ name: 'legacy', transport: 'sse', url: remote.url, headers: {} }], invalid: [] }, personal })
  identity = createClientIdentity({ secret: 'y'.repeat(40) })
  app = { identity, clients: chat.clients, personal, audience: EVERYONE }
  flow = personalConnectFlow({ app, identity, appUrl: APP, login: loginAtProvider })
})

afterEach(async () => {
  await chat.close()
  await store.destroy()
  await remote.close()
  vi.restoreAllMocks()
})

describe('an "sse" server behind OAuth', () => {
  it('needs each person to connect; alice and bob each connect and call it with their own token; after Disconnect alice must connect again', async () => {
    await flow.needsConnect('legacy')
    expect(chat.clients.servers()).toEqual([{ name: 'legacy', status: 'needs_connect', connect: { kind: 'oauth' } }])
    // Its challenge pointed at its own metadata, which names the authorization server.
    expect(chat.clients.connection('legacy')!.challenge?.resourceMetadataUrl?.href).toBe(`${remote.url.origin}/.well-known/oauth-protected-resource/sse`)
    const alice = flow.browser()
    const bob = flow.browser()
    expect(await flow.statusFor('legacy', alice.person)).toBe('needs_connect')

    const { authorizationUrl, connection: hers } = await flow.connectAs('legacy', alice, 'alice')
    // The token is asked for this resource (RFC 8707), with PKCE.
    expect(authorizationUrl.searchParams.get('resource')).toBe(remote.url.href)
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(hers.tools.map((tool) => tool.name)).toEqual(['whoami'])
    const whoami = async (person: string) => ((await chat.clients.runningPersonal('legacy', person)!.client!.callTool({ name: 'whoami' })) as CallToolResult).content
    expect(await whoami(alice.person)).toEqual([{ type: 'text', text: 'signed in as alice' }])
    expect(await flow.statusFor('legacy', bob.person)).toBe('needs_connect')
    expect(chat.clients.personalTools(bob.person)).toEqual([])

    await flow.connectAs('legacy', bob, 'bob')
    expect(await whoami(bob.person)).toEqual([{ type: 'text', text: 'signed in as bob' }])
    expect(await whoami(alice.person)).toEqual([{ type: 'text', text: 'signed in as alice' }])

    const disconnected = await flow.post('disconnect', alice, { server: 'legacy' })
    expect(await disconnected.json()).toEqual({ server: 'legacy', disconnected: true, revoked: true })
    expect(await flow.statusFor('legacy', alice.person)).toBe('needs_connect')
    expect(chat.clients.runningPersonal('legacy', alice.person)).toBeUndefined()
    expect(await whoami(bob.person)).toEqual([{ type: 'text', text: 'signed in as bob' }])

    const token = await app.personal!.oauth.accessToken({ person: bob.person, server: { name: 'legacy', url: remote.url } })
    expect(token).toMatch(/^ey/)
    expect(logged.filter((line) => line.includes(token!))).toEqual([])
  })


  it('asks a person whose token the server no longer takes to connect again, and leaves everyone else connected', async () => {
    await flow.needsConnect('legacy')
    const alice = flow.browser()
    const bob = flow.browser()
    await flow.connectAs('legacy', alice, 'alice')
    await flow.connectAs('legacy', bob, 'bob')
    remote.refuse('alice')
    // Her connection starts again (as after a restart of the chat) with the token it holds: refused on the event stream.
    await chat.clients.forgetPersonal('legacy', alice.person)
    await flow.until(async () => ((await flow.statusFor('legacy', alice.person)) === 'needs_connect' ? true : undefined))
    expect(chat.clients.personalTools(alice.person)).toEqual([])
    expect(await flow.statusFor('legacy', bob.person)).toBe('ready')
    expect(((await chat.clients.runningPersonal('legacy', bob.person)!.client!.callTool({ name: 'whoami' })) as CallToolResult).content).toEqual([{ type: 'text', text: 'signed in as bob' }])
  })
})
