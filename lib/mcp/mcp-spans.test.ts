import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { createChatServer, type ChatServer } from '../engine/chat-server'
import { createChatTestClient, eventsOf } from '../engine/testing/chat-test-client'
import { createOfflineModel } from '../models'
import { createServerToolSource } from './client/server-tool-source'
import { startMcpClients } from './client/start-mcp-clients'
import type { McpClients } from './client/use-mcp-clients'
import { createMcpEndpoint, type McpEndpoint } from './server/mcp-endpoint'
import { serveFetch } from './server/testing/serve-fetch'
import { tracedMcpEndpoint } from './server/traced-endpoint'

/**
 * MCP spans both ways, as a production process makes them: the SDK registered as the global
 * provider (the W3C propagator, the AsyncLocalStorage context), spans into the in-memory
 * exporter. The chat calls a tool of an external MCP server that is this app's own endpoint,
 * traced, on a real port: the server's span must continue the chat's trace from `_meta`.
 */
const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
provider.register()
const tracer = provider.getTracer('mcp-spans.test')

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
let clients: McpClients
let closeClients: () => Promise<void>
beforeAll(async () => {
  const untraced = await createMcpEndpoint({
    tools: [bookTrainTool],
    stateSecret: 'a-state-secret-of-at-least-32-characters',
    model: createOfflineModel({ delayMs: 0 }),
    extend: (server) =>
      server.registerTool('echo', { description: 'Says back what it is given' }, async () => ({ content: [{ type: 'text' as const, text: 'echoed' }] })),
  })
  endpoint = tracedMcpEndpoint(untraced, tracer)
  served = await serveFetch((request) => endpoint.handle(request))
  const started = await startMcpClients({
    config: { servers: [{ name: 'app', transport: 'http', url: served.url, headers: {} }], invalid: [] },
    timing: { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 200 },
  })
  clients = started.clients
  closeClients = started.close
  await vi.waitFor(() => expect(clients.tools().map((tool) => tool.name)).toContain('app__echo'), { timeout: 20_000, interval: 20 })
}, 30_000)
afterAll(async () => {
  await closeClients?.()
  await served?.close()
  await endpoint?.close()
  await provider.shutdown()
})

const chats: ChatServer[] = []
afterEach(async () => {
  for (const chat of chats.splice(0)) await chat.close()
  exporter.reset()
})

async function chatServer(traced: boolean): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0 }),
    tools: [],
    externalTools: createServerToolSource({ clients }),
    ...(traced ? { tracer } : {}),
  })
  chats.push(chat)
  return chat
}

const echo = { messages: [{ role: 'user' as const, content: '/app__echo {}' }], directToolCall: { name: 'app__echo', arguments: {} } }
const spans = () => exporter.getFinishedSpans()
const named = (name: string, kind?: number) => spans().filter((span) => span.name === name && (kind === undefined || span.kind === kind))
const SERVER = 1
const CLIENT = 2

/** The server's span of the call, once it has ended (with its response's body, after the chat had the result). */
async function serverSpanOfCall(): Promise<ReadableSpan> {
  await vi.waitFor(() => expect(named('tools/call echo', SERVER)).toHaveLength(1), { timeout: 5_000, interval: 10 })
  return named('tools/call echo', SERVER)[0]!
}

describe('MCP spans by the conventions, trace context in _meta both ways', () => {
  it('a traced chat’s call: a client span under the tool call’s span, and the server’s span continuing it from _meta.traceparent', async () => {
    const browser = createChatTestClient({ chat: await chatServer(true) })
    const turn = await browser.post(echo)
    expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content).content[0].text).toBe('echoed')

    const [tool] = named('execute_tool app__echo')
    const [client] = named('tools/call echo', CLIENT)
    expect(client!.parentSpanContext?.spanId).toBe(tool!.spanContext().spanId)
    expect(client!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': expect.any(String),
      // A 2025 session over Streamable HTTP: its id and the version negotiated.
      'mcp.session.id': expect.any(String),
      'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
    })

    const server = await serverSpanOfCall()
    expect(server.spanContext().traceId).toBe(client!.spanContext().traceId)
    expect(server.parentSpanContext?.spanId).toBe(client!.spanContext().spanId)
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'jsonrpc.request.id': client!.attributes['jsonrpc.request.id'],
      'mcp.protocol.version': client!.attributes['mcp.protocol.version'],
    })
    expect(server.attributes['mcp.session.id']).toBe(client!.attributes['mcp.session.id'])
  })

  it('an untraced chat’s call carries no traceparent: the server’s span starts a trace of its own, and the chat makes none', async () => {
    const browser = createChatTestClient({ chat: await chatServer(false) })
    const turn = await browser.post(echo)
    expect(eventsOf(turn.events, 'tool_result')).toHaveLength(1)
    const server = await serverSpanOfCall()
    expect(server.parentSpanContext).toBeUndefined()
    expect(named('tools/call echo', CLIENT)).toEqual([])
    expect(named('execute_tool app__echo')).toEqual([])
  })

  it('a JSON-RPC error answers as the span’s error, with its code', async () => {
    const response = await endpoint.handle(
      new Request(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', host: served.url.host },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such-method', params: { _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } }),
      }),
    )
    await response.text()
    const [span] = named('no/such-method', SERVER)
    expect(span!.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c')
    expect(span!.parentSpanContext?.spanId).toBe('b7ad6b7169203331')
    expect(span!.attributes).toMatchObject({ 'mcp.method.name': 'no/such-method', 'jsonrpc.request.id': '7' })
    expect(span!.attributes['error.type']).toBeDefined()
  })
})
