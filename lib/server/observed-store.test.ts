import { afterEach, describe, expect, it } from 'vitest'
import { run } from 'effection'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import type { Train } from '@/fixtures/book-train/trains'
import { createChatServer, type ChatServer } from '../engine'
import { createChatTestClient, elicitRequests } from '../engine/testing/chat-test-client'
import { createOfflineModel } from '../models'
import { createMemorySessionStore, SessionStoreUnavailableError, type SessionRecord, type SessionStore } from '../sessions'
import { chatHistoryOf, DEFAULT_CONVERSATION_LIMITS } from '../conversations'
import { observedStore, SESSION_STORE_OPERATIONS, sessionRecordSpan, type StoreOperationReport } from './observed-store'
import { openConversations } from './open-conversations'

const record: SessionRecord = {
  format: 1,
  id: 'call-1',
  clientId: 'client-a',
  toolName: 'ask',
  params: {},
  status: 'running',
  journal: [],
  createdAt: 1,
  updatedAt: 1,
  expiresAt: Date.now() + 60_000,
  keepUntil: Date.now() + 120_000,
}

const exporter = new InMemorySpanExporter()
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('observed-store.test')
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
  exporter.reset()
})

describe('a store, observed', () => {
  it('does what the store does, and tells each operation with its duration', async () => {
    const reports: StoreOperationReport[] = []
    const store = observedStore(createMemorySessionStore(), SESSION_STORE_OPERATIONS, { system: 'memory', collection: 'sessions', report: (report) => reports.push(report) })
    const created = await run(() => store.create(record))
    expect(created?.version).toBe(1)
    expect((await run(() => store.get('client-a', 'call-1')))?.record.id).toBe('call-1')
    expect(await run(() => store.countOpen({ clientId: 'client-a', now: Date.now() }))).toEqual({ client: 1, all: 1 })
    expect(store.kind).toBe('memory')
    expect(reports.map(({ operation, errorType }) => [operation, errorType])).toEqual([
      ['create', undefined],
      ['get', undefined],
      ['countOpen', undefined],
    ])
    for (const { seconds } of reports) expect(seconds).toBeGreaterThanOrEqual(0)
  })

  it('tells a failed operation with its error’s name, and the error still reaches its caller', async () => {
    const reports: StoreOperationReport[] = []
    const down: SessionStore = {
      ...createMemorySessionStore(),
      *get() {
        throw new SessionStoreUnavailableError('the store is down')
      },
    }
    const store = observedStore(down, SESSION_STORE_OPERATIONS, { system: 'memory', collection: 'sessions', report: (report) => reports.push(report), tracer })
    await expect(run(() => store.get('client-a', 'call-1'))).rejects.toThrow('the store is down')
    expect(reports).toEqual([{ operation: 'get', seconds: expect.any(Number), errorType: 'SessionStoreUnavailableError' }])
    // Outside a traced piece of work (no turn, no tool call): no span.
    expect(exporter.getFinishedSpans()).toEqual([])
  })

  it('without metrics or a tracer is the store itself: nothing wraps its operations', () => {
    const store = createMemorySessionStore()
    expect(observedStore(store, SESSION_STORE_OPERATIONS, { system: 'memory', collection: 'sessions' })).toBe(store)
  })
})

describe('the stores’ spans in a traced turn', () => {
  /** A chat server whose sessions and chats are in observed memory stores, traced into the in-memory exporter. */
  async function app() {
    const chats = await openConversations({ store: 'memory', dataDir: '', limits: DEFAULT_CONVERSATION_LIMITS, tracer })
    const sessions = observedStore(createMemorySessionStore(), SESSION_STORE_OPERATIONS, { system: 'memory', collection: 'sessions', tracer, parentOf: sessionRecordSpan })
    const chat: ChatServer = await createChatServer({
      model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
      tools: [bookTrainTool],
      // eslint-disable-next-line require-yield
      useStore: function* () {
        return sessions
      },
      history: chatHistoryOf(chats.conversations),
      tracer,
    })
    closing.push(() => chat.close())
    return { chat, chats }
  }

  const spansNamed = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name)
  const parentOf = (span: ReadableSpan) => exporter.getFinishedSpans().find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId)

  it('reads and writes of the chats and the sessions are children of the turn’s agent span and of the tool call’s span', async () => {
    const { chat, chats } = await app()
    const browser = createChatTestClient({ chat })
    await browser.post({ messages: [] })
    const { id } = await chats.run(() => chats.conversations.create(browser.clientId!))
    browser.chatId = id
    exporter.reset()

    const first = await browser.say('Book a train from Paris to Lyon')
    const [pickTrain] = elicitRequests(first.events)
    const [agent] = spansNamed('invoke_agent elicit-chat')
    const [tool] = spansNamed('execute_tool book_train')
    // The chat's turn recorded under the turn.
    const [startTurn] = spansNamed('startTurn chats')
    expect(startTurn!.attributes).toEqual({ 'db.system.name': 'memory', 'db.operation.name': 'startTurn', 'db.collection.name': 'chats' })
    expect(parentOf(startTurn!)).toBe(agent)
    // Checked before anything streams, then stored with its first batch (and any later batch appended): all under the turn.
    const chatWrites = [...spansNamed('startTurn chats'), ...spansNamed('appendEvents chats')]
    expect(spansNamed('startTurn chats')).toHaveLength(2)
    for (const write of chatWrites) expect(parentOf(write)).toBe(agent)
    // The tool call's record written under its own span (made with its question).
    const writes = [...spansNamed('create sessions'), ...spansNamed('update sessions')]
    expect(writes.length).toBeGreaterThanOrEqual(1)
    for (const write of writes) {
      expect(write.spanContext().traceId).toBe(agent!.spanContext().traceId)
      expect(parentOf(write)).toBe(tool)
    }

    // The answer's turn: the chat and the record written in the new trace, under that turn's spans.
    exporter.reset()
    const train = (pickTrain!.context.trains as Train[])[0]!
    await browser.answer([{ request: pickTrain!, result: { action: 'accept', content: { trainId: train.id } } }])
    const [answerAgent] = spansNamed('invoke_agent elicit-chat')
    const [resumed] = spansNamed('execute_tool book_train')
    // The tool waited in memory here: its record is taken by one compare-and-set, written with the resumed span.
    expect(parentOf(spansNamed('startTurn chats')[0]!)).toBe(answerAgent)
    const answered = spansNamed('update sessions')
    expect(answered.length).toBeGreaterThan(0)
    for (const write of answered) expect(parentOf(write)).toBe(resumed)
  })
})
