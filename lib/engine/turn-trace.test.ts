import { afterEach, describe, expect, it } from 'vitest'
import { run } from 'effection'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { createOfflineModel } from '../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import { createMemorySessionStore } from '../sessions/stores/memory-store'
import type { SessionStore } from '../sessions'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createChatServer, type ChatServer } from './chat-server'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from './testing/chat-test-client'

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const tracer = provider.getTracer('turn-trace.test')

const servers: ChatServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  exporter.reset()
})

async function instance(store: SessionStore, traceContent = false): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
    tools: [bookTrainTool],
    secret: 'a-secret-every-instance-in-these-tests-shares',
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
    tracer,
    traceContent,
  })
  servers.push(chat)
  return chat
}

function on(chat: ChatServer, browser: ChatTestClient): ChatTestClient {
  const other = createChatTestClient({ chat })
  other.cookie = browser.cookie
  other.messages = browser.messages
  return other
}

const contextOf = (request: PluginElicitRequestEvent) => request.context

/** The spans of one turn's trace, by name. */
function traceOf(spans: ReadableSpan[], traceId: string) {
  const inTrace = spans.filter((span) => span.spanContext().traceId === traceId)
  const named = (name: string) => inTrace.filter((span) => span.name === name)
  return { spans: inTrace, named }
}

const toolSpans = () => exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool book_train')

describe('a turn traced by the GenAI conventions', () => {
  it('shows a booking as linked pieces: paused with its question, resumed from memory, then from the record on another instance', async () => {
    const store = createMemorySessionStore()
    const a = await instance(store)
    const b = await instance(store)
    const browser = createChatTestClient({ chat: a })

    const first = await browser.say('Book a train from Paris to Lyon')
    const [pickTrain] = elicitRequests(first.events)
    expect(pickTrain).toMatchObject({ key: 'pickTrain' })
    const [started] = toolSpans()
    expect(started!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'book_train',
      'gen_ai.tool.call.id': pickTrain!.callId,
      'elicit.tool.paused': true,
      'elicit.pause.reason': 'awaiting_user_input',
      'elicit.question.key': 'pickTrain',
      'elicit.question.id': pickTrain!.elicitId,
    })
    // The person's time is outside the span: it ended when the question was asked.
    const firstTrace = traceOf(exporter.getFinishedSpans(), started!.spanContext().traceId)
    const [agent] = firstTrace.named('invoke_agent elicit-chat')
    expect(agent!.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'offline' })
    expect(started!.parentSpanContext?.spanId).toBe(agent!.spanContext().spanId)
    const [model] = firstTrace.spans.filter((span) => span.name.startsWith('chat '))
    expect(model!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.response.finish_reasons': ['tool_calls'] })
    expect(model!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0)
    expect(model!.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0)
    // No context value (the trains offered) and no message content without the opt-in.
    const train = (contextOf(pickTrain!).trains as Train[])[0]!
    const everything = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))
    expect(everything).not.toContain(train.id)
    expect(everything).not.toContain('Paris')

    // The answer on the same instance: the tool waited in memory, nothing replayed.
    exporter.reset()
    const second = await browser.answer([{ request: pickTrain!, result: { action: 'accept', content: { trainId: train.id } } }])
    const [pickSeat] = elicitRequests(second.events)
    expect(pickSeat).toMatchObject({ key: 'pickSeat' })
    const [resumedHot] = toolSpans()
    expect(resumedHot!.spanContext().traceId).not.toBe(started!.spanContext().traceId)
    expect(resumedHot!.attributes).toMatchObject({
      'gen_ai.tool.call.id': pickTrain!.callId,
      'elicit.tool.resumed': true,
      'elicit.resume.from': 'memory',
      'elicit.resume.replayed_entries': 0,
      'elicit.question.key': 'pickSeat',
    })
    expect(resumedHot!.links).toHaveLength(1)
    expect(resumedHot!.links[0]!.context).toMatchObject({ traceId: started!.spanContext().traceId, spanId: started!.spanContext().spanId })
    expect(resumedHot!.links[0]!.attributes).toEqual({ 'elicit.link.kind': 'resume' })

    // The last answer on the other instance: the tool is replayed from its record, and the link comes from the record.
    exporter.reset()
    const seat = freeSeats(contextOf(pickSeat!).seatMap as SeatMap)[0]!
    const third = await on(b, browser).answer([{ request: pickSeat!, result: { action: 'accept', content: seat } }])
    expect(eventsOf(third.events, 'tool_result')).toHaveLength(1)
    const [resumedCold] = toolSpans()
    const [record] = await run(() => store.list({ statuses: ['completed'], limit: 10 }))
    // What the tool had received up to the answer it resumed with: the journal's entries up to its last answer.
    expect(record!.journal.filter((entry) => entry.kind === 'elicit')).toHaveLength(2)
    const replayed = record!.journal.findLastIndex((entry) => entry.kind === 'elicit') + 1
    expect(resumedCold!.attributes).toMatchObject({
      'gen_ai.tool.call.id': pickTrain!.callId,
      'elicit.resume.from': 'record',
      'elicit.resume.replayed_entries': replayed,
    })
    expect(resumedCold!.attributes['elicit.tool.paused']).toBeUndefined()
    expect(resumedCold!.links[0]!.context).toMatchObject({ spanId: resumedHot!.spanContext().spanId })
  })
})
