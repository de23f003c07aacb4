import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatServer, type ChatServer } from '../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf, textOf } from '../../engine/testing/chat-test-client'
import { createOfflineModel } from '../../models'
import type { PluginElicitRequestEvent } from '../../protocol/events'
import { createMemorySessionStore } from '../../sessions'
import { EXTERNAL_QUESTION } from './external-questions'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import { everythingServer, faultServer } from './testing/servers'
import type { McpClients } from './use-mcp-clients'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const SECRET = 'a-secret-every-instance-in-these-tests-shares'

// One set of connections for the file, as the app has one per process; each test has its own chat.
let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const started = await startMcpClients({
    config: {
      servers: [
        { name: 'everything', transport: 'stdio', env: {}, ...everythingServer() },
        { name: 'faulty', transport: 'stdio', env: {}, ...faultServer('serve') },
      ],
      invalid: [],
    },
    timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 200 },
  })
  clients = started.clients
  closeClients = started.close
  // Up, and with the tools server-everything adds once it knows what this client offers.
  await vi.waitFor(
    () => {
      expect(clients.servers().every((server) => server.status === 'ready')).toBe(true)
      expect(clients.tools().map((tool) => tool.name)).toContain('everything__trigger-sampling-request')
    },
    { timeout: 30_000, interval: 50 },
  )
}, 40_000)
afterAll(async () => {
  await closeClients?.()
})

async function setUp() {
  const store = createMemorySessionStore()
  const chat = await instance(clients, store)
  return { clients, chat, store, browser: createChatTestClient({ chat }) }
}

async function instance(clients: McpClients, store = createMemorySessionStore()): Promise<ChatServer> {
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

const command = (name: string, args: Record<string, unknown>) => ({ role: 'user' as const, content: `/${name} ${JSON.stringify(args)}` })
const contextOf = (request: PluginElicitRequestEvent) => request.context

describe('external tools in the chat', { timeout: 30_000 }, () => {
  it('a slash command calls the tool directly and ends the turn with its result, no model', async () => {
    const { chat, browser } = await setUp()
    expect(chat.listTools()).toContainEqual({ name: 'everything__echo', description: expect.stringContaining('Echo'), source: 'mcp:everything' })
    const turn = await browser.post({ messages: [command('everything__echo', { message: 'hi' })], directToolCall: { name: 'everything__echo', arguments: { message: 'hi' } } })
    expect(eventsOf(turn.events, 'tool_calls')[0]!.calls).toEqual([
      { id: expect.stringMatching(/^direct\./), name: 'everything__echo', arguments: { message: 'hi' }, external: { server: 'everything', tool: 'echo' } },
    ])
    const [result] = eventsOf(turn.events, 'tool_result')
    expect(JSON.parse(result!.content)).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] })
    expect(eventsOf(turn.events, 'text')).toEqual([])
    expect(browser.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool'])

    const unknown = await browser.post({ messages: [command('nope__echo', {})], directToolCall: { name: 'nope__echo', arguments: {} } })
    expect(unknown.status).toBe(400)
    expect(unknown.error).toMatchObject({ code: 'unknown_tool', message: expect.stringContaining('no tool named "nope__echo"') })
  })

  it('the model is offered the servers’ tools with their own schemas, and calls one when asked plainly', async () => {
    const { browser } = await setUp()
    const turn = await browser.say('Call everything__echo with {"message": "from the model"}')
    expect(eventsOf(turn.events, 'tool_calls')[0]!.calls[0]).toMatchObject({ name: 'everything__echo', arguments: { message: 'from the model' }, external: { server: 'everything', tool: 'echo' } })
    expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content).content[0].text).toBe('Echo: from the model')
    // The model speaks again after the result (only slash commands end without it).
    expect(textOf(turn.events)).toContain('The everything__echo tool returned: Echo: from the model')
  })

  it('the server elicits: a form question whose answer is checked against its schema, then sent back', async () => {
    const { browser } = await setUp()
    const args = {}
    const turn = await browser.post({ messages: [command('everything__trigger-elicitation-request', args)], directToolCall: { name: 'everything__trigger-elicitation-request', arguments: args } })
    const [question] = elicitRequests(turn.events)
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.form, message: expect.stringContaining('Please provide inputs') })
    expect(contextOf(question!)).toMatchObject({ server: 'everything', requestedSchema: { type: 'object', required: ['name'] } })

    const rejected = await browser.answer([{ request: question!, result: { action: 'accept', content: { name: 'Ada', integer: 'seven' } } }])
    expect(eventsOf(rejected.events, 'plugin_elicit_rejected')[0]!.message).toMatch(/integer/)

    const answered = await browser.answer([{ request: question!, result: { action: 'accept', content: { name: 'Ada', integer: 7, untitledMultipleSelectEnum: ['Piano'] } } }])
    const [result] = eventsOf(answered.events, 'tool_result')
    const text = JSON.stringify(JSON.parse(result!.content).content)
    expect(text).toContain('Name: Ada')
    expect(text).toContain('Favorite Integer: 7')
    expect(eventsOf(answered.events, 'text')).toEqual([])
  })

  it('a server question while two calls to it are in flight is refused, never shown to the wrong chat', async () => {
    const { chat, browser } = await setUp()
    const other = createChatTestClient({ chat })
    const first = await browser.post({ messages: [command('everything__trigger-elicitation-request', {})], directToolCall: { name: 'everything__trigger-elicitation-request', arguments: {} } })
    expect(elicitRequests(first.events)).toHaveLength(1)
    const second = await other.post({ messages: [command('everything__trigger-elicitation-request', {})], directToolCall: { name: 'everything__trigger-elicitation-request', arguments: {} } })
    expect(elicitRequests(second.events)).toEqual([])
    const outcome = eventsOf(second.events, 'tool_error')[0]?.message ?? eventsOf(second.events, 'tool_result')[0]?.content
    expect(outcome).toMatch(/2 calls to everything in flight and cannot tell which one/)
  })

  it('a URL-mode elicitation: the link, confirmed, reaches the server as accepted', async () => {
    const { browser } = await setUp()
    const args = { url: 'https://example.com/authorize', message: 'Sign in to continue.' }
    const turn = await browser.post({ messages: [command('everything__trigger-url-elicitation', args)], directToolCall: { name: 'everything__trigger-url-elicitation', arguments: args } })
    const [question] = elicitRequests(turn.events)
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.url, message: expect.stringContaining('Sign in to continue.') })
    expect(contextOf(question!)).toMatchObject({ server: 'everything', url: 'https://example.com/authorize' })
    const answered = await browser.answer([{ request: question!, result: { action: 'accept', content: {} } }])
    expect(eventsOf(answered.events, 'tool_result')[0]!.content).toMatch(/accept/)
  })

  it('-32042: each link is a URL question; confirmed, the call is made again with the same arguments and its result arrives', async () => {
    const { browser } = await setUp()
    // server-everything's error path: -32042 first, then (the retry) its own URL-mode question.
    const args = { url: 'https://example.com/after-retry', message: 'Now the real link.', errorPath: true }
    const turn = await browser.post({ messages: [command('everything__trigger-url-elicitation', args)], directToolCall: { name: 'everything__trigger-url-elicitation', arguments: args } })
    expect(eventsOf(turn.events, 'tool_error')).toEqual([])
    const [required] = elicitRequests(turn.events)
    expect(required).toMatchObject({ key: EXTERNAL_QUESTION.url, message: expect.stringContaining('satisfy the prerequisite') })
    expect(contextOf(required!)).toEqual({ server: 'everything', url: 'https://modelcontextprotocol.io' })

    const retried = await browser.answer([{ request: required!, result: { action: 'accept', content: {} } }])
    const [asked] = elicitRequests(retried.events)
    expect(contextOf(asked!)).toEqual({ server: 'everything', url: 'https://example.com/after-retry' })
    const answered = await browser.answer([{ request: asked!, result: { action: 'accept', content: {} } }])
    expect(eventsOf(answered.events, 'tool_result')[0]!.content).toMatch(/User completed the URL elicitation flow/)
  })

  it('-32042 with several links asks each in turn; a second -32042 asks again; past the bound it is a tool error', async () => {
    const { browser } = await setUp()
    const call = (args: Record<string, unknown>) => browser.post({ messages: [...browser.messages, command('faulty__url-required', args)], directToolCall: { name: 'faulty__url-required', arguments: args } })
    const confirm = async (events: Awaited<ReturnType<typeof call>>['events'], expected: string) => {
      const [question] = elicitRequests(events)
      expect(contextOf(question!)).toEqual({ server: 'faulty', url: expected })
      return (await browser.answer([{ request: question!, result: { action: 'accept', content: {} } }])).events
    }
    let events = (await call({ key: 'twice', times: 2 })).events
    for (let round = 0; round < 2; round++) {
      events = await confirm(events, 'https://auth.example.com/connect?step=a')
      events = await confirm(events, 'http://localhost:9/consent')
    }
    expect(JSON.parse(eventsOf(events, 'tool_result')[0]!.content).content[0].text).toBe('called 3 times')

    events = (await call({ key: 'always', times: 99 })).events
    for (let round = 0; round < 3; round++) {
      events = await confirm(events, 'https://auth.example.com/connect?step=a')
      events = await confirm(events, 'http://localhost:9/consent')
    }
    expect(elicitRequests(events)).toEqual([])
    expect(eventsOf(events, 'tool_error')[0]!.message).toMatch(/still asks for links to be opened \(-32042, URL elicitation required\) after 3 rounds/)
  })

  it('-32042 declined or cancelled: a result saying so, and the turn goes on', async () => {
    const { browser } = await setUp()
    const args = { key: 'declined', times: 1 }
    const turn = await browser.post({ messages: [command('faulty__url-required', args)], directToolCall: { name: 'faulty__url-required', arguments: args } })
    const [question] = elicitRequests(turn.events)
    const answered = await browser.answer([{ request: question!, result: { action: 'decline' } }])
    const result = JSON.parse(eventsOf(answered.events, 'tool_result')[0]!.content)
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/declined opening https:\/\/auth\.example\.com\/connect\?step=a.*not called again/) }] })
    expect(eventsOf(answered.events, 'tool_error')).toEqual([])

    // Asked by the model (and approved, since the tool is not marked read-only), the model reads the result and speaks again.
    const byModel = await browser.say('Call faulty__url-required with {"key": "cancelled", "times": 1}')
    const [approval] = elicitRequests(byModel.events)
    expect(approval!.key).toBe(EXTERNAL_QUESTION.approval)
    const [asked] = elicitRequests((await browser.answer([{ request: approval!, result: { action: 'accept', content: { scope: 'once' } } }])).events)
    const cancelled = await browser.answer([{ request: asked!, result: { action: 'cancel' } }])
    expect(eventsOf(cancelled.events, 'tool_result')[0]!.content).toMatch(/cancelled opening/)
    expect(textOf(cancelled.events)).toContain('faulty__url-required')
  })

  it('-32042 with data the chat cannot show is a clear tool error', async () => {
    const { browser } = await setUp()
    const cases: Array<[unknown, RegExp]> = [
      [{ elicitations: [{ mode: 'form', elicitationId: 'x', message: 'm', requestedSchema: { type: 'object', properties: {} } }] }, /elicitations\.0\.mode/],
      [{ elicitations: [{ mode: 'url', elicitationId: 'x', url: 'javascript:alert(1)', message: 'm' }] }, /elicitations\.0\.url: not an http\(s\) URL/],
      [{ elicitations: [] }, /elicitations/],
      ['nothing useful', /cannot be shown/],
    ]
    for (const [data, why] of cases) {
      const args = { key: `malformed-${JSON.stringify(data)}`, times: 1, data }
      const turn = await browser.post({ messages: [...browser.messages, command('faulty__url-required', args)], directToolCall: { name: 'faulty__url-required', arguments: args } })
      expect(elicitRequests(turn.events)).toEqual([])
      const message = eventsOf(turn.events, 'tool_error')[0]!.message
      expect(message).toMatch(/faulty asked for links to be opened \(-32042, URL elicitation required\), but its data\.elicitations cannot be shown/)
      expect(message).toMatch(why)
    }
  })

  it('the server samples: approved, the chat model answers within its limits; denied, the server gets an error', async () => {
    const { browser } = await setUp()
    const args = { prompt: 'Name a colour', maxTokens: 50 }
    const start = () => browser.post({ messages: [...browser.messages, command('everything__trigger-sampling-request', args)], directToolCall: { name: 'everything__trigger-sampling-request', arguments: args } })
    const [question] = elicitRequests((await start()).events)
    expect(question!.key).toBe(EXTERNAL_QUESTION.sampling)
    expect(contextOf(question!)).toMatchObject({ server: 'everything', maxTokens: 50, temperature: 0.7, systemPrompt: 'You are a helpful test server.', messages: [{ role: 'user', text: expect.stringContaining('Name a colour') }] })
    const approved = await browser.answer([{ request: question!, result: { action: 'accept', content: {} } }])
    const answer = eventsOf(approved.events, 'plugin_log').find((log) => log.message.startsWith("The chat's model answered"))
    expect(answer).toBeDefined()
    const [result] = eventsOf(approved.events, 'tool_result')
    expect(result!.content).toContain('LLM sampling result')

    const [second] = elicitRequests((await start()).events)
    const denied = await browser.answer([{ request: second!, result: { action: 'decline' } }])
    expect(eventsOf(denied.events, 'tool_error')[0]?.message ?? eventsOf(denied.events, 'tool_result')[0]?.content).toMatch(/denied/)
  })

  it('Stop sends notifications/cancelled to the server', async () => {
    const { browser } = await setUp()
    // The request is cut while the call waits (as Stop cuts it): the turn stops, and with it the call.
    const stopped = await browser.post({ messages: [command('faulty__wait', {})], directToolCall: { name: 'faulty__wait', arguments: {} } }, { signal: AbortSignal.timeout(300) })
    expect(eventsOf(stopped.events, 'tool_result')).toEqual([])
    const count = async () => {
      const turn = await browser.post({ messages: [command('faulty__cancelled', {})], directToolCall: { name: 'faulty__cancelled', arguments: {} } })
      return JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content).content[0].text
    }
    await expect.poll(count).toBe('1')
  })

  it('progress reaches the card; Stop cancels the call', async () => {
    const { browser, clients } = await setUp()
    const args = { duration: 0.4, steps: 4 }
    const done = await browser.post({ messages: [command('everything__trigger-long-running-operation', args)], directToolCall: { name: 'everything__trigger-long-running-operation', arguments: args } })
    // The last notification may come after the result (the SDK hands them over separately): the card then shows the result.
    expect(eventsOf(done.events, 'plugin_progress').map((event) => event.progress).slice(0, 3)).toEqual([0.25, 0.5, 0.75])

    const long = { duration: 30, steps: 30 }
    const abort = new AbortController()
    const response = await browser.send(
      { messages: [...browser.messages, command('everything__trigger-long-running-operation', long)], directToolCall: { name: 'everything__trigger-long-running-operation', arguments: long } },
      { signal: abort.signal },
    )
    const reader = response.body!.getReader()
    let seen = ''
    while (!seen.includes('plugin_progress')) seen += new TextDecoder().decode((await reader.read()).value)
    expect(clients.connection('everything')!.calls.size).toBe(1)
    abort.abort()
    await reader.cancel().catch(() => undefined)
    await expect.poll(() => clients.connection('everything')!.calls.size).toBe(0)
  })

  it('malformed and oversized results are clear errors; a session from another process is lost, never replayed', async () => {
    const { browser, clients, store } = await setUp()
    const malformed = await browser.post({ messages: [command('faulty__malformed', {})], directToolCall: { name: 'faulty__malformed', arguments: {} } })
    expect(eventsOf(malformed.events, 'tool_error')[0]!.message).toMatch(/answer could not be used/)
    const huge = await browser.post({ messages: [...browser.messages, command('faulty__huge', {})], directToolCall: { name: 'faulty__huge', arguments: {} } })
    expect(eventsOf(huge.events, 'tool_error')[0]!.message).toMatch(/too large to show: 2,000,0\d\d characters/)

    const [question] = elicitRequests(
      (await browser.post({ messages: [...browser.messages, command('everything__trigger-elicitation-request', {})], directToolCall: { name: 'everything__trigger-elicitation-request', arguments: {} } })).events,
    )
    const other = createChatTestClient({ chat: await instance(clients, store) })
    other.cookie = browser.cookie
    other.messages = browser.messages
    const lost = await other.answer([{ request: question!, result: { action: 'accept', content: { name: 'Ada' } } }])
    expect(eventsOf(lost.events, 'plugin_session_error')[0]!.message).toMatch(/external call everything__trigger-elicitation-request was lost/)
    expect(eventsOf(lost.events, 'tool_result')).toEqual([])
  })
})
