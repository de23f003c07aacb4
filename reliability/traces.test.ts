import { afterEach, describe, expect, it } from 'vitest'
import { responseTo } from '../e2e/support/chat-api'
import { flightAnswer, seatAnswer } from '../plugins/book-flight/e2e/booking-answers'
import { createKeptChat } from './support/kept-chat'
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver'
import type { ReceivedSpan } from './support/otlp-spans'
import { report } from './support/measure'
import { processesPerTest } from './support/processes'
import type { PluginElicitRequestEvent } from '../lib/protocol/events'

const processes = processesPerTest()
const receivers: OtlpReceiver[] = []
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close()
})

async function receiver(options?: { delayMs?: number }): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver(options)
  receivers.push(started)
  return started
}

/**
 * A production server exporting its traces with the SDK's own OTLP exporter to `endpoint`: in its
 * default encoding (protobuf, what is deployed unless an operator chooses otherwise), or `http/json`.
 */
const tracing = (endpoint: string, protocol?: 'http/json') => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  ...(protocol ? { OTEL_EXPORTER_OTLP_PROTOCOL: protocol } : {}),
  OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental',
  // Batches leave often, so that the test's waits (on what arrives) are short.
  OTEL_BSP_SCHEDULE_DELAY: '50',
})

/** `SPAN_KIND_SERVER` in OTLP's encoding (the API's `SpanKind.SERVER` plus one). */
const OTLP_SERVER_KIND = 2

const toolSpans = (spans: ReceivedSpan[]) => spans.filter((span) => span.name === 'execute_tool book_flight')
const elicitOf = (events: Array<{ type: string }>) => events.findLast((event) => event.type === 'plugin_elicit_request') as PluginElicitRequestEvent | undefined

describe('traces over OTLP', () => {
  it('a booking across a kill -9 shows as three linked tool spans in one chat: paused, resumed from the record, resumed from memory', async () => {
    const otlp = await receiver()
    const first = await processes.app({ env: tracing(otlp.url) })
    const chat = await createKeptChat(first.url)

    const start = await chat.say('Book a flight from NYC to LAX')
    const pickFlight = elicitOf(start.events)!
    expect(pickFlight.key).toBe('pickFlight')
    // The paused span has reached the receiver before the process dies.
    const paused = await otlp.waitFor((spans) => toolSpans(spans).find((span) => span.attributes['elicit.tool.paused'] === true))
    expect(paused.encoding).toBe('protobuf')
    expect(paused.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': pickFlight.callId,
      'elicit.question.key': 'pickFlight',
      'elicit.pause.reason': 'awaiting_user_input',
    })
    // …with its turn's agent and server spans, which end as its response does.
    const turnOf = (piece: ReceivedSpan) =>
      otlp.waitFor((spans) => {
        const agent = spans.find((span) => span.spanId === piece.parentSpanId)
        const server = spans.find((span) => span.traceId === piece.traceId && span.scope === 'elicit-chat' && span.kind === OTLP_SERVER_KIND && span.attributes['http.route'] === '/api/chat')
        return agent && server ? { agent, server } : undefined
      })
    const pausedTurn = await turnOf(paused)
    // The stores' reads and writes under the turn: the chat's turn recorded under its agent span,
    // the tool call's record written under the tool's own span, both in SQLite (the embedded store).
    const [startTurn, recordWrite] = await otlp.waitFor((spans) => {
      const chatWrite = spans.find((span) => span.name === 'startTurn chats' && span.parentSpanId === pausedTurn.agent.spanId)
      const sessionWrite = spans.find((span) => /^(create|update) sessions$/.test(span.name) && span.parentSpanId === paused.spanId)
      return chatWrite && sessionWrite ? [chatWrite, sessionWrite] : undefined
    })
    expect(startTurn!.attributes).toMatchObject({ 'db.system.name': 'sqlite', 'db.operation.name': 'startTurn', 'db.collection.name': 'chats' })
    expect(recordWrite!.attributes).toMatchObject({ 'db.system.name': 'sqlite', 'db.collection.name': 'sessions' })
    await first.kill('SIGKILL')

    const second = await processes.app({ env: tracing(otlp.url), dataDir: first.dataDir })
    chat.baseURL = second.url
    const seatTurn = await chat.post({ messages: chat.messages, pluginElicitResponses: [responseTo(pickFlight, { action: 'accept', content: flightAnswer(pickFlight).content })] })
    const pickSeat = elicitOf(seatTurn.events)!
    expect(pickSeat.key).toBe('pickSeat')
    const done = await chat.post({ messages: chat.messages, pluginElicitResponses: [responseTo(pickSeat, { action: 'accept', content: seatAnswer(pickSeat).content })] })
    expect(done.events.some((event) => event.type === 'tool_result')).toBe(true)

    const [cold, hot] = await otlp.waitFor((spans) => {
      const resumed = toolSpans(spans).filter((span) => span.attributes['elicit.tool.resumed'] === true)
      return resumed.length === 2 ? resumed : undefined
    })
    // After the restart: replayed from the record, linked to the span that paused before the kill.
    expect(cold!.attributes).toMatchObject({ 'gen_ai.tool.call.id': pickFlight.callId, 'elicit.resume.from': 'record', 'elicit.question.key': 'pickSeat' })
    expect(cold!.attributes['elicit.resume.replayed_entries']).toBeGreaterThan(0)
    expect(cold!.links).toEqual([{ traceId: paused.traceId, spanId: paused.spanId, attributes: { 'elicit.link.kind': 'resume' } }])
    // The last answer on the same process: from memory, linked to the second piece.
    expect(hot!.attributes).toMatchObject({ 'gen_ai.tool.call.id': pickFlight.callId, 'elicit.resume.from': 'memory', 'elicit.resume.replayed_entries': 0 })
    expect(hot!.links).toEqual([{ traceId: cold!.traceId, spanId: cold!.spanId, attributes: { 'elicit.link.kind': 'resume' } }])

    // Three turns, three traces, each an HTTP server span > invoke_agent (the chat's id) > the tool's span.
    for (const { agent, server } of [pausedTurn, await turnOf(cold!), await turnOf(hot!)]) {
      expect(agent.name).toBe('invoke_agent elicit-chat')
      expect(agent.attributes['gen_ai.conversation.id']).toBe(chat.id)
      expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 })
      // The agent's span is within the request's: its server span, or Next's handler span under it.
      expect(agent.traceId).toBe(server.traceId)
    }
    const spans = otlp.spans()
    expect(new Set([paused.traceId, cold!.traceId, hot!.traceId]).size).toBe(3)
    // The first turn's model call: its model, tokens and why it stopped.
    const model = spans.find((span) => span.traceId === paused.traceId && span.name.startsWith('chat '))!
    expect(model.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'offline', 'gen_ai.response.finish_reasons': ['tool_calls'] })
    expect(model.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0)
    // No question's context values (the flights offered) without the opt-in.
    expect(JSON.stringify(spans)).not.toContain(flightAnswer(pickFlight).content.flightId)
    report('traces: booking across kill -9', { 'tool spans': 3, links: 2, 'resumed from': 'record, then memory' })
  })

  it("an incoming traceparent is the request's parent (spans sent as OTLP/JSON)", async () => {
    const otlp = await receiver()
    const app = await processes.app({ env: tracing(otlp.url, 'http/json') })
    const traceId = '0af7651916cd43dd8448eb211c80319c'
    const parentId = 'b7ad6b7169203331'
    const refused = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${parentId}-01` },
      body: '{"messages":"x"}',
    })
    expect(refused.status).toBe(400)
    const server = await otlp.waitFor((spans) => spans.find((span) => span.traceId === traceId && span.scope === 'elicit-chat' && span.attributes['http.route'] === '/api/chat'))
    expect(server).toMatchObject({ parentSpanId: parentId, name: 'POST /api/chat', encoding: 'json' })
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 400, 'elicit.refusal.code': 'invalid_request' })
    // Its log line names the trace and the span.
    const line = app
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.msg === 'request' && entry.route === '/api/chat')
    expect(line).toMatchObject({ status: 400, code: 'invalid_request', traceId, spanId: server.spanId })
  })

  it("an MCP request's trace context in params._meta is its MCP span's parent, linked to the HTTP span", async () => {
    const otlp = await receiver()
    const app = await processes.app({ env: tracing(otlp.url) })
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const parentId = '00f067aa0ba902b7'
    const initialize = await fetch(`${app.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'traces.test', version: '1' }, _meta: { traceparent: `00-${traceId}-${parentId}-01` } },
      }),
    })
    expect(initialize.status).toBe(200)
    await initialize.text()
    const span = await otlp.waitFor((spans) => spans.find((candidate) => candidate.traceId === traceId && candidate.name === 'initialize'))
    expect(span).toMatchObject({ parentSpanId: parentId, kind: OTLP_SERVER_KIND })
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'initialize', 'jsonrpc.request.id': '1', 'mcp.protocol.version': '2025-11-25', 'mcp.session.id': initialize.headers.get('mcp-session-id') })
    // Linked to the HTTP request's trace (the span active in the route: ours, or Next's handler span under it).
    const http = await otlp.waitFor((spans) => spans.find((candidate) => candidate.scope === 'elicit-chat' && candidate.kind === OTLP_SERVER_KIND && candidate.attributes['http.route'] === '/api/mcp'))
    expect(http.traceId).not.toBe(traceId)
    expect(span.links).toEqual([{ traceId: http.traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), attributes: {} }])
  })

  it('a collector that is down or slow costs nothing but spans: every turn succeeds', async () => {
    // Down: nothing listens where the spans go.
    const gone = await receiver()
    const downAt = gone.url
    await gone.close()
    receivers.length = 0
    const down = await processes.app({ env: tracing(downAt) })
    const slow = await receiver({ delayMs: 60_000 })
    const slowed = await processes.app({ env: tracing(slow.url) })
    for (const app of [down, slowed]) {
      const chat = await createKeptChat(app.url)
      for (const text of ['Hello', 'Book a flight from NYC to LAX']) {
        const turn = await chat.say(text)
        expect(turn.status).toBe(200)
        expect(turn.events.at(-1)?.type).toBe('complete')
      }
    }
    // The slow collector was sent spans, and has not answered: the turns did not wait for it.
    await slow.waitFor((spans) => (spans.length > 0 ? true : undefined))
  })
})
