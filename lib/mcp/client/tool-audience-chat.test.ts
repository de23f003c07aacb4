import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatServer, type ChatServer } from '../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from '../../engine/testing/chat-test-client'
import { peopleListOf, type ClientIdentityResolver, type Person } from '../../http'
import { createOfflineModel } from '../../models'
import { createMemorySessionStore, type SessionStore } from '../../sessions'
import { EXTERNAL_QUESTION } from './external-questions'
import type { McpServerConfig } from './mcp-servers-config'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import { faultServer } from './testing/servers'
import { createToolAudience } from './tool-audience'
import type { McpClients } from './use-mcp-clients'

// Who may use an external server's tools, through the chat engine, against the fault server over
// stdio: its mcp.json entry names bob (users), and with sign-in a stdio entry without users is
// for admins. Who is asking comes as the sign-in's account identity gives it (ClientIdentity.person);
// the sign-in itself is tested against a real provider in lib/auth and e2e/mcp-users.spec.ts.

const SECRET = 'a-secret-every-instance-in-these-tests-shares'
const bob: Person = { email: 'bob@example.com', emailVerified: true, groups: ['eng'], isAdmin: false }
const carol: Person = { email: 'carol@example.com', emailVerified: true, groups: ['eng'], isAdmin: false }
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const entry = { name: 'faulty', transport: 'stdio', env: {}, ...faultServer('serve') } satisfies McpServerConfig
let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const started = await startMcpClients({ config: { servers: [entry], invalid: [] }, timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 200 } })
  clients = started.clients
  closeClients = started.close
  await vi.waitFor(() => expect(clients.servers()).toEqual([{ name: 'faulty', status: 'ready' }]), { timeout: 30_000, interval: 50 })
}, 40_000)
afterAll(async () => {
  await closeClients?.()
})

/** The account identity's answer for one signed-in person: their account id and who they are. */
function signedIn(clientId: string, person: Person): ClientIdentityResolver {
  const identity = { clientId, headers: {}, person }
  return {
    resolve: () => identity,
    identify: async () => identity,
    joinCookie: () => ({}),
    newBrowserId: () => 'b'.repeat(22),
  }
}

/** A chat server whose mcp.json has the fault server's entry with `users` (or none); instances on one `store` are one deployment. */
async function instance({ store, users }: { store: SessionStore; users?: string[] }): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0 }),
    tools: [],
    externalTools: createServerToolSource({ clients }),
    toolAudience: createToolAudience({ config: { servers: [{ ...entry, ...(users ? { users: peopleListOf(users) } : {}) }] }, signIn: true }),
    secret: SECRET,
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
  })
  closing.push(() => chat.close())
  return chat
}

describe('an external server’s tools, per person', { timeout: 30_000 }, () => {
  it('are listed to, offered to the model for, and run for the people its users names only', async () => {
    const chat = await instance({ store: createMemorySessionStore(), users: ['bob@example.com'] })
    expect(chat.listTools({ person: bob }).map((tool) => tool.name)).toContain('faulty__peek')
    expect(chat.listTools({ person: carol }).filter((tool) => tool.source === 'mcp:faulty')).toEqual([])

    const asBob = createChatTestClient({ chat, identity: signedIn('B'.repeat(43), bob) })
    const peeked = await asBob.post({ messages: [{ role: 'user', content: '/faulty__peek' }], directToolCall: { name: 'faulty__peek', arguments: { key: 'k' } } })
    expect(eventsOf(peeked.events, 'tool_result')).toHaveLength(1)

    const asCarol = createChatTestClient({ chat, identity: signedIn('C'.repeat(43), carol) })
    const refused = await asCarol.post({ messages: [{ role: 'user', content: '/faulty__peek' }], directToolCall: { name: 'faulty__peek', arguments: { key: 'k' } } })
    expect(refused).toMatchObject({ status: 403, error: { code: 'tool_not_allowed', message: expect.stringContaining('"faulty__peek" is not yours to use') } })
    // Asked in words, the model is not offered it; naming it anyway starts nothing.
    const asked = await asCarol.say('Call faulty__bump with {"key": "carol"}')
    expect(eventsOf(asked.events, 'tool_result')).toEqual([])
    expect(elicitRequests(asked.events)).toEqual([])
    expect(JSON.stringify(eventsOf(asked.events, 'tool_error'))).not.toContain('not yours')
  })

  it('an answer carrying on a call of a server that is no longer the person’s is refused 403, and nothing reaches the server', async () => {
    const store = createMemorySessionStore()
    const before = await instance({ store, users: ['bob@example.com'] })
    const asBob = createChatTestClient({ chat: before, identity: signedIn('B'.repeat(43), bob) })
    const [question] = elicitRequests((await asBob.say('Call faulty__bump with {"key": "revoked"}')).events)
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.approval })

    // mcp.json loses the entry's users and the server restarts: a stdio server is now for admins only.
    const after = await instance({ store })
    const again = createChatTestClient({ chat: after, identity: signedIn('B'.repeat(43), bob) })
    again.messages = asBob.messages
    const refused = await again.answer([{ request: question!, result: { action: 'accept', content: { scope: 'once' } } }])
    expect(refused).toMatchObject({ status: 403, error: { code: 'tool_not_allowed' } })
    // An admin reads the counter: bump never ran.
    const admin = createChatTestClient({ chat: after, identity: signedIn('A'.repeat(43), { ...carol, isAdmin: true }) })
    const peeked = await admin.post({ messages: [{ role: 'user', content: '/faulty__peek' }], directToolCall: { name: 'faulty__peek', arguments: { key: 'revoked' } } })
    expect(JSON.parse(eventsOf(peeked.events, 'tool_result')[0]!.content)).toEqual({ content: [{ type: 'text', text: '0' }] })
  })
})
