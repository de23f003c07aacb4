import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatServer, type ChatServer, type ChatServerOptions } from '../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from '../../engine/testing/chat-test-client'
import { createOfflineModel } from '../../models'
import type { PluginElicitRequestEvent } from '../../protocol/events'
import { createMemorySessionStore } from '../../sessions'
import { EXTERNAL_QUESTION } from './external-questions'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import { startEverythingHttpServer, type EverythingHttpServer } from './testing/everything-http-server'
import { startRecordingProxy, type RecordingProxy } from './testing/recording-proxy'
import type { McpClients } from './use-mcp-clients'

// Several people on one Streamable HTTP server (server-everything, behind a proxy that notes
// what the chat sends it): each call gets the server's questions sent within it, and only those.

let everything: EverythingHttpServer
let proxy: RecordingProxy
let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  everything = await startEverythingHttpServer()
  proxy = await startRecordingProxy({ target: everything.url })
  const started = await startMcpClients({
    config: { servers: [{ name: 'remote', transport: 'http', url: new URL(`${proxy.origin}/mcp`), headers: {} }], invalid: [] },
    timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 400 },
  })
  clients = started.clients
  closeClients = started.close
  await vi.waitFor(() => expect(clients.tools().map((tool) => tool.name)).toContain('remote__trigger-url-elicitation'), { timeout: 20_000, interval: 50 })
}, 40_000)
afterAll(async () => {
  await closeClients?.()
  await proxy?.close()
  await everything?.stop()
})

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

async function instance(options: Partial<ChatServerOptions> = {}): Promise<ChatServer> {
  const store = createMemorySessionStore()
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0 }),
    tools: [],
    externalTools: createServerToolSource({ clients }),
    secret: 'a-secret-for-this-test',
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
    ...options,
  })
  closing.push(() => chat.close())
  return chat
}

type Browser = ReturnType<typeof createChatTestClient>
const contextOf = (request: PluginElicitRequestEvent) => request.context

/** A slash command in `browser`'s chat; the question it asks, or its result. */
async function command(browser: Browser, tool: string, args: Record<string, unknown>) {
  const turn = await browser.post({ messages: [...browser.messages, { role: 'user', content: `/remote__${tool}` }], directToolCall: { name: `remote__${tool}`, arguments: args } })
  return { question: elicitRequests(turn.events)[0], turn }
}

const nameForm = (name: string) => ({ action: 'accept' as const, content: { name, integer: 7 } })

/** The JSON-RPC messages the chat POSTed to the server so far. */
function posted(): Array<{ id?: number; method?: string; params?: Record<string, unknown> }> {
  return proxy.requests.flatMap((request) => (request.method === 'POST' && request.body ? [JSON.parse(request.body)] : []))
}

/** The JSON-RPC id of the tools/call whose arguments include `marker`. */
function callIdOf(marker: string): number | undefined {
  return posted().find((message) => message.method === 'tools/call' && JSON.stringify(message.params).includes(marker))?.id
}

const cancelled = (id: number | undefined) => posted().some((message) => message.method === 'notifications/cancelled' && message.params?.requestId === id)

describe('one HTTP server, several people', { timeout: 30_000 }, () => {
  it("one person's abandoned question blocks nobody: another's form and sampling are asked and answered, and the first can still answer", async () => {
    const chat = await instance()
    const first = createChatTestClient({ chat })
    const second = createChatTestClient({ chat })
    const { question: link } = await command(first, 'trigger-url-elicitation', { url: 'https://example.com/abandoned', message: 'Left open.' })
    expect(link).toMatchObject({ key: EXTERNAL_QUESTION.url })

    const { question: form } = await command(second, 'trigger-elicitation-request', {})
    expect(form).toMatchObject({ key: EXTERNAL_QUESTION.form })
    const answered = await second.answer([{ request: form!, result: nameForm('Grace') }])
    expect(eventsOf(answered.events, 'tool_result')[0]!.content).toContain('Name: Grace')

    const { question: sampling } = await command(second, 'trigger-sampling-request', { prompt: 'Name a colour', maxTokens: 30 })
    expect(sampling).toMatchObject({ key: EXTERNAL_QUESTION.sampling })
    const sampled = await second.answer([{ request: sampling!, result: { action: 'accept', content: {} } }])
    expect(eventsOf(sampled.events, 'tool_result')[0]!.content).toContain('LLM sampling result')

    const late = await first.answer([{ request: link!, result: { action: 'accept', content: {} } }])
    expect(eventsOf(late.events, 'tool_result')[0]!.content).toMatch(/accept/)
  })

  it('two calls of one person at once each ask their own question, and each answer reaches its own call', async () => {
    const chat = await instance()
    const one = createChatTestClient({ chat })
    const other = createChatTestClient({ chat })
    // Two chats of the same browser.
    await one.say('hello')
    other.cookie = one.cookie
    const [a, b] = await Promise.all([command(one, 'trigger-elicitation-request', {}), command(other, 'trigger-elicitation-request', {})])
    expect([a.question?.key, b.question?.key]).toEqual([EXTERNAL_QUESTION.form, EXTERNAL_QUESTION.form])
    expect(contextOf(a.question!)).toMatchObject({ server: 'remote' })
    const second = await other.answer([{ request: b.question!, result: nameForm('Second') }])
    const first = await one.answer([{ request: a.question!, result: nameForm('First') }])
    expect(eventsOf(first.events, 'tool_result')[0]!.content).toContain('Name: First')
    expect(eventsOf(second.events, 'tool_result')[0]!.content).toContain('Name: Second')
  })

  it('a call stopped while it waits is cancelled toward the server (notifications/cancelled)', async () => {
    const chat = await instance()
    const browser = createChatTestClient({ chat })
    const { question } = await command(browser, 'trigger-url-elicitation', { url: 'https://example.com/stopped', message: 'Stopped.' })
    const id = callIdOf('https://example.com/stopped')
    expect(id).toEqual(expect.any(Number))
    expect(cancelled(id)).toBe(false)
    await browser.abort(question!.sessionId, 'Stopped by the user.')
    await expect.poll(() => cancelled(id)).toBe(true)
  })

  it('a call nobody answers is cancelled toward the server at its idle time-out (a closed tab)', async () => {
    const chat = await instance({ idleTimeoutMs: 300 })
    const browser = createChatTestClient({ chat })
    const { question } = await command(browser, 'trigger-url-elicitation', { url: 'https://example.com/closed-tab', message: 'Nobody is there.' })
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.url })
    const id = callIdOf('https://example.com/closed-tab')
    await expect.poll(() => cancelled(id), { timeout: 10_000 }).toBe(true)
    expect(clients.connection('remote')!.calls.size).toBe(0)
  })
})
