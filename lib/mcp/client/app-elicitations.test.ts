import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatServer } from '../../engine/chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from '../../engine/testing/chat-test-client'
import { createOfflineModel } from '../../models'
import type { PluginElicitRequestEvent } from '../../protocol/events'
import { createMcpAppsHost } from '../apps/mcp-apps-host'
import { isMcpAppError } from '../apps/mcp-app-error'
import { elicitationAppServer } from '../apps/testing/elicitation-app-server-path'
import { questionAppsOf } from './app-elicitations'
import { EXTERNAL_QUESTION, type FormQuestion } from './external-questions'
import { createServerToolSource } from './server-tool-source'
import { startMcpClients } from './start-mcp-clients'
import type { McpClients } from './use-mcp-clients'

// The chat as a host of app-rendered elicitations (SEP-3118, draft), against the reference
// server of lib/mcp/apps/testing over stdio: `tables` advertises them, `quiet` does not (but
// sends the hint anyway).

let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const started = await startMcpClients({
    config: {
      servers: [
        { name: 'tables', transport: 'stdio', env: {}, ...elicitationAppServer() },
        { name: 'quiet', transport: 'stdio', env: {}, ...elicitationAppServer({ advertise: false }) },
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

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

async function setUp() {
  const chat = await createChatServer({ model: createOfflineModel({ delayMs: 0 }), tools: [], externalTools: createServerToolSource({ clients }) })
  closing.push(() => chat.close())
  const host = createMcpAppsHost({
    source: {
      getTool: async ({ server, name }) => clients.getTool(server, name),
      readResource: ({ server, uri, signal }) => clients.readResource(server, uri, { signal }),
      callTool: ({ server, name, arguments: args, signal }) => clients.callTool(server, name, args, { signal }),
    },
    questions: questionAppsOf(chat),
    secret: 's'.repeat(32),
  })
  const browser = createChatTestClient({ chat })
  /** The browser's id, as its identity cookie (`<id>.<signature>`) carries it. */
  const clientId = () => browser.cookie!.split('=')[1]!.split('.')[0]!
  return { chat, host, browser, clientId }
}

function call(browser: ReturnType<typeof createChatTestClient>, name: string, args: Record<string, unknown>) {
  return browser.post({ messages: [{ role: 'user', content: `/${name} ${JSON.stringify(args)}` }], directToolCall: { name, arguments: args } })
}

const contextOf = (request: PluginElicitRequestEvent) => request.context as unknown as FormQuestion

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!isMcpAppError(error)) throw new Error(`expected an McpAppError, got ${String(error)}`)
  return { code: error.code, status: error.status }
}

describe('app-rendered elicitations from other servers', { timeout: 30_000 }, () => {
  it('the chat declares forms and MCP Apps with app-rendered elicitations in initialize', async () => {
    const { browser } = await setUp()
    const turn = await call(browser, 'tables__client_capabilities', {})
    const declared = JSON.parse(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content).content[0].text)
    expect(declared).toMatchObject({
      elicitation: { form: {} },
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} } },
    })
  })

  it('a form naming its app reaches the browser with the app and the request to forward unchanged; the app opens for that question only', async () => {
    const { chat, host, browser, clientId } = await setUp()
    const turn = await call(browser, 'tables__reserve_table', {})
    const [question] = elicitRequests(turn.events)
    expect(question).toMatchObject({ key: EXTERNAL_QUESTION.form, message: expect.stringMatching(/^Which table would you like tonight\?/) })
    const context = contextOf(question!)
    expect(context.app).toEqual({
      resourceUri: 'ui://tables/picker',
      request: { mode: 'form', message: 'Which table would you like tonight?', requestedSchema: context.requestedSchema, _meta: { ui: { resourceUri: 'ui://tables/picker' } } },
    })

    // Found from the session's own question, read from the server that asked.
    const opened = await host.openQuestionApp({ clientId: clientId(), callId: question!.callId, elicitId: question!.elicitId })
    expect(opened.uri).toBe('ui://tables/picker')
    expect('bridgeTicket' in opened).toBe(false)
    const frame = await host.serveFrame({ clientId: clientId(), ticket: opened.src.split('/').at(-1)! })
    expect(await frame.text()).toContain('elicitation/create')
    expect(frame.headers.get('content-security-policy')).toContain('sandbox allow-scripts allow-forms')
    // Not for another browser, nor for a question the call does not wait on.
    expect(await refusal(host.openQuestionApp({ clientId: 'someone-else', callId: question!.callId, elicitId: question!.elicitId }))).toEqual({ code: 'unknown_question', status: 404 })
    expect(await refusal(host.openQuestionApp({ clientId: clientId(), callId: question!.callId, elicitId: `${question!.elicitId}0` }))).toMatchObject({ code: 'unknown_question' })
    expect(await chat.waitingQuestion({ clientId: 'someone-else', callId: question!.callId })).toBeUndefined()

    // What the app answers is checked outside it, on the server, against the requested schema:
    // a table not offered, for too many guests, never reaches the tool.
    const refused = await browser.answer([{ request: question!, result: { action: 'accept', content: { table: 'T9', guests: 40 } } }])
    const [rejection] = eventsOf(refused.events, 'plugin_elicit_rejected')
    expect(rejection!.message).toMatch(/table/)
    expect(eventsOf(refused.events, 'tool_result')).toEqual([])

    const answered = await browser.answer([{ request: question!, result: { action: 'accept', content: { table: 'T2', guests: 4 } } }])
    expect(JSON.parse(eventsOf(answered.events, 'tool_result')[0]!.content).content[0].text).toBe('Reserved T2 for 4 guests.')
    // Answered: its app is no longer opened for it.
    expect(await refusal(host.openQuestionApp({ clientId: clientId(), callId: question!.callId, elicitId: question!.elicitId }))).toMatchObject({ code: 'unknown_question' })
  })

  it('a missing app resource is a clear error for the card, which then shows the form', async () => {
    const { host, browser, clientId } = await setUp()
    const [question] = elicitRequests((await call(browser, 'tables__reserve_table', { app: 'missing' })).events)
    expect(contextOf(question!).app?.resourceUri).toBe('ui://tables/missing')
    const error = await host.openQuestionApp({ clientId: clientId(), callId: question!.callId, elicitId: question!.elicitId }).catch((caught: unknown) => caught)
    expect(isMcpAppError(error) && { code: error.code, message: error.message }).toEqual({ code: 'server_unavailable', message: expect.stringContaining('ui://tables/missing') })
    await browser.abort(question!.sessionId)
  })

  it('a server that did not advertise app-rendered elicitations gets its hint ignored: the plain form', async () => {
    const { host, browser, clientId } = await setUp()
    const [question] = elicitRequests((await call(browser, 'quiet__reserve_table', {})).events)
    expect(contextOf(question!)).toEqual({ server: 'quiet', requestedSchema: expect.objectContaining({ required: ['table', 'guests'] }) })
    expect(await refusal(host.openQuestionApp({ clientId: clientId(), callId: question!.callId, elicitId: question!.elicitId }))).toMatchObject({ code: 'unknown_question' })
    const answered = await browser.answer([{ request: question!, result: { action: 'accept', content: { table: 'T1', guests: 2 } } }])
    expect(JSON.parse(eventsOf(answered.events, 'tool_result')[0]!.content).content[0].text).toBe('Reserved T1 for 2 guests.')
  })
})
