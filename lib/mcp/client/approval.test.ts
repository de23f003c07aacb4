import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatServer, type ChatServer } from '../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf, textOf } from '../../engine/testing/chat-test-client'
import { createOfflineModel } from '../../models'
import type { PluginElicitRequestEvent } from '../../protocol/events'
import { createMemorySessionStore, type SessionStore } from '../../sessions'
import { EXTERNAL_QUESTION } from './external-questions'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import { faultServer } from './testing/servers'
import type { McpClients } from './use-mcp-clients'

// Approval before an external call, against real servers over stdio: the fault server's
// counters (bump writes; peek only reads; wipe reads and is destructive), under three policies.

const SECRET = 'a-secret-every-instance-in-these-tests-shares'
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const started = await startMcpClients({
    config: {
      servers: [
        { name: 'faulty', transport: 'stdio', env: {}, ...faultServer('serve') },
        { name: 'trusting', transport: 'stdio', env: {}, ...faultServer('serve'), approve: 'never' },
        { name: 'careful', transport: 'stdio', env: {}, ...faultServer('serve'), approve: 'always' },
      ],
      invalid: [],
    },
    timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 200 },
  })
  clients = started.clients
  closeClients = started.close
  await vi.waitFor(() => expect(clients.servers().every((server) => server.status === 'ready')).toBe(true), { timeout: 30_000, interval: 50 })
}, 40_000)
afterAll(async () => {
  await closeClients?.()
})

async function instance(store: SessionStore): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0 }),
    tools: [],
    externalTools: createServerToolSource({ clients }),
    secret: SECRET,
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
  })
  closing.push(() => chat.close())
  return chat
}

async function setUp() {
  const store = createMemorySessionStore()
  const chat = await instance(store)
  return { store, chat, browser: createChatTestClient({ chat }) }
}

const contextOf = (request: PluginElicitRequestEvent) => request.context
const resultText = (content: string) => (JSON.parse(content) as { content: Array<{ text: string }> }).content[0]!.text
const allowOnce = { action: 'accept' as const, content: { scope: 'once' } }
const allowForChat = { action: 'accept' as const, content: { scope: 'chat' } }

/** What a counter is at, read in a chat of its own (peek only reads, so it never asks). */
async function counter(chat: ChatServer, key: string, server = 'faulty'): Promise<string> {
  const turn = await createChatTestClient({ chat }).post({ messages: [{ role: 'user', content: `/${server}__peek` }], directToolCall: { name: `${server}__peek`, arguments: { key } } })
  return resultText(eventsOf(turn.events, 'tool_result')[0]!.content)
}

describe('approving external calls', { timeout: 30_000 }, () => {
  it('a tool not marked read-only waits for approval with nothing sent; Allow once runs it once and the model reads its result', async () => {
    const { chat, browser } = await setUp()
    const asked = await browser.say('Call faulty__bump with {"key": "once"}')
    const [question] = elicitRequests(asked.events)
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.approval, message: expect.stringContaining('Allow faulty to run bump?') })
    expect(contextOf(question!)).toEqual({ server: 'faulty', tool: 'bump', description: 'Adds one to a counter.', arguments: { key: 'once' } })
    expect(eventsOf(asked.events, 'tool_result')).toEqual([])
    expect(await counter(chat, 'once')).toBe('0')

    const before = browser.messages
    const allowed = await browser.answer([{ request: question!, result: allowOnce }])
    expect(resultText(eventsOf(allowed.events, 'tool_result')[0]!.content)).toBe('1')
    expect(textOf(allowed.events)).toContain('The faulty__bump tool returned: 1')
    expect(await counter(chat, 'once')).toBe('1')

    // Answered exactly once: the same answer again is refused, and nothing reaches the server.
    const again = await browser.post({ messages: before, pluginElicitResponses: [{ sessionId: question!.sessionId, callId: question!.callId, elicitId: question!.elicitId, result: allowOnce }] })
    expect(again.error).toMatchObject({ code: 'elicit_already_answered' })
    expect(await counter(chat, 'once')).toBe('1')
  })

  it('Deny: the model reads that the person denied it, and the turn goes on; nothing reached the server', async () => {
    const { chat, browser } = await setUp()
    const [question] = elicitRequests((await browser.say('Call faulty__bump with {"key": "denied"}')).events)
    const denied = await browser.answer([{ request: question!, result: { action: 'decline' } }])
    const [result] = eventsOf(denied.events, 'tool_result')
    expect(JSON.parse(result!.content)).toEqual({ content: [{ type: 'text', text: 'The person denied this call: bump on faulty was not run.' }], isError: true })
    expect(textOf(denied.events)).toContain('The faulty__bump tool reported an error: The person denied this call')
    expect(eventsOf(denied.events, 'complete')).toHaveLength(1)
    expect(await counter(chat, 'denied')).toBe('0')
  })

  it('Allow for this chat: later calls of that tool in that chat run at once; another tool, or another chat, asks again', async () => {
    const { chat, browser } = await setUp()
    const [first] = elicitRequests((await browser.say('Call faulty__bump with {"key": "chat"}')).events)
    const allowed = await browser.answer([{ request: first!, result: allowForChat }])
    expect(JSON.parse(eventsOf(allowed.events, 'tool_result')[0]!.content)).toMatchObject({ content: [{ text: '1' }], allowedForThisChat: true })
    for (const expected of ['2', '3']) {
      const turn = await browser.say('Call faulty__bump with {"key": "chat"}')
      expect(elicitRequests(turn.events)).toEqual([])
      expect(resultText(eventsOf(turn.events, 'tool_result')[0]!.content)).toBe(expected)
    }
    // Another tool of the same server asks.
    const wipe = await browser.say('Call faulty__wipe with {"key": "chat"}')
    expect(elicitRequests(wipe.events)[0]).toMatchObject({ key: EXTERNAL_QUESTION.approval })
    await browser.abort(elicitRequests(wipe.events)[0]!.sessionId)

    // A new chat in the same browser asks again, and so does another browser.
    const sameBrowser = createChatTestClient({ chat })
    sameBrowser.cookie = browser.cookie
    for (const other of [sameBrowser, createChatTestClient({ chat })]) {
      const turn = await other.say('Call faulty__bump with {"key": "chat"}')
      expect(elicitRequests(turn.events)[0]).toMatchObject({ key: EXTERNAL_QUESTION.approval })
      await other.abort(elicitRequests(turn.events)[0]!.sessionId)
    }
    expect(await counter(chat, 'chat')).toBe('3')
  })

  it('an allowance cannot be written in by the browser: a changed tool message is refused', async () => {
    const { chat, browser } = await setUp()
    const [question] = elicitRequests((await browser.say('Call faulty__bump with {"key": "forged"}')).events)
    await browser.answer([{ request: question!, result: allowOnce }])
    const forged = browser.messages.map((message) =>
      message.role === 'tool' ? { ...message, content: JSON.stringify({ ...JSON.parse(message.content!), allowedForThisChat: true }) } : message,
    )
    const turn = await browser.post({ messages: [...forged, { role: 'user', content: 'Call faulty__bump with {"key": "forged"}' }] })
    expect(turn.status).toBe(400)
    expect(turn.error).toMatchObject({ code: 'tampered_message' })
    expect(await counter(chat, 'forged')).toBe('1')
  })

  it('a slash command the person typed is their approval', async () => {
    const { chat, browser } = await setUp()
    const turn = await browser.post({ messages: [{ role: 'user', content: '/faulty__bump {"key":"typed"}' }], directToolCall: { name: 'faulty__bump', arguments: { key: 'typed' } } })
    expect(elicitRequests(turn.events)).toEqual([])
    expect(resultText(eventsOf(turn.events, 'tool_result')[0]!.content)).toBe('1')
    expect(await counter(chat, 'typed')).toBe('1')
  })

  it('read-only tools run at once, unless also destructive; "approve" in mcp.json changes whom it asks', async () => {
    const { browser } = await setUp()
    const peek = await browser.say('Call faulty__peek with {"key": "policy"}')
    expect(elicitRequests(peek.events)).toEqual([])
    expect(resultText(eventsOf(peek.events, 'tool_result')[0]!.content)).toBe('0')

    const [wipe] = elicitRequests((await browser.say('Call faulty__wipe with {"key": "policy"}')).events)
    expect(contextOf(wipe!)).toMatchObject({ tool: 'wipe', destructive: true })
    await browser.answer([{ request: wipe!, result: allowOnce }])

    // "never": nothing is asked, not even for a write.
    const trusted = await browser.say('Call trusting__bump with {"key": "policy"}')
    expect(elicitRequests(trusted.events)).toEqual([])
    expect(resultText(eventsOf(trusted.events, 'tool_result')[0]!.content)).toBe('1')
    // "always": even a read-only tool asks.
    const careful = await browser.say('Call careful__peek with {"key": "policy"}')
    expect(elicitRequests(careful.events)[0]).toMatchObject({ key: EXTERNAL_QUESTION.approval })
  })

  it('a waiting approval survives a restart: another process on the same store answers it, and the call is made there once', async () => {
    const { store, chat, browser } = await setUp()
    const [question] = elicitRequests((await browser.say('Call faulty__bump with {"key": "restart"}')).events)
    await chat.close()

    const after = createChatTestClient({ chat: await instance(store) })
    after.cookie = browser.cookie
    after.messages = browser.messages
    const allowed = await after.answer([{ request: question!, result: allowOnce }])
    expect(eventsOf(allowed.events, 'plugin_session_error')).toEqual([])
    expect(resultText(eventsOf(allowed.events, 'tool_result')[0]!.content)).toBe('1')
    expect(await counter(await instance(createMemorySessionStore()), 'restart')).toBe('1')
  })

  it('two deliveries of one approval at once, on two processes: the call is made once', async () => {
    const { store, chat, browser } = await setUp()
    const [question] = elicitRequests((await browser.say('Call faulty__bump with {"key": "twice"}')).events)
    const other = createChatTestClient({ chat: await instance(store) })
    other.cookie = browser.cookie
    other.messages = browser.messages
    const outcomes = await Promise.all([browser.answer([{ request: question!, result: allowOnce }]), other.answer([{ request: question!, result: allowOnce }])])
    expect(outcomes.flatMap((outcome) => eventsOf(outcome.events, 'tool_result'))).toHaveLength(1)
    expect(outcomes.find((outcome) => outcome.status !== 200)).toMatchObject({ status: 409, error: { code: 'elicit_already_answered' } })
    expect(await counter(chat, 'twice')).toBe('1')
  })

  it('only the browser that started the call can approve it', async () => {
    const { chat, browser } = await setUp()
    const [question] = elicitRequests((await browser.say('Call faulty__bump with {"key": "owner"}')).events)
    const stranger = createChatTestClient({ chat })
    stranger.messages = browser.messages
    const refused = await stranger.answer([{ request: question!, result: allowOnce }])
    expect(eventsOf(refused.events, 'plugin_session_error')[0]).toMatchObject({ error: 'SESSION_NOT_FOUND' })
    expect(await counter(chat, 'owner')).toBe('0')
    const allowed = await browser.answer([{ request: question!, result: allowOnce }])
    expect(resultText(eventsOf(allowed.events, 'tool_result')[0]!.content)).toBe('1')
  })
})
