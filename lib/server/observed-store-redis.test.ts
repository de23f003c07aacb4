import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { run } from 'effection'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { createChatServer } from '../engine'
import { createChatTestClient, elicitRequests } from '../engine/testing/chat-test-client'
import { createOfflineModel } from '../models'
import type { SessionStore } from '../sessions'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../sessions/testing/redis-server'
import { dbSystemOf, observedStore, SESSION_STORE_OPERATIONS, sessionRecordSpan } from './observed-store'

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(() => redis.stop())

const exporter = new InMemorySpanExporter()
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('observed-store-redis.test')
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
  exporter.reset()
})

describe('the sessions’ store on Redis, traced', () => {
  it('writes a tool call’s record in Redis under a span that names the store redis', async () => {
    let store: SessionStore | undefined
    const chat = await createChatServer({
      model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
      tools: [bookTrainTool],
      // As the app opens it with REDIS_URL (chat-server-instance.ts).
      useStore: function* () {
        const opened = yield* useRedisSessionStore({ url: redis.url, prefix: `observed-${Date.now()}:` })
        store = observedStore(opened, SESSION_STORE_OPERATIONS, { system: dbSystemOf(opened.kind), collection: 'sessions', tracer, parentOf: sessionRecordSpan })
        return store
      },
      tracer,
    })
    closing.push(() => chat.close())
    const browser = createChatTestClient({ chat })

    const [question] = elicitRequests((await browser.say('Book a train from Paris to Lyon')).events)
    expect(question).toMatchObject({ key: 'pickTrain' })
    // The record is in Redis, waiting on the question.
    expect((await run(() => store!.get(browser.clientId!, question!.callId)))?.record).toMatchObject({ status: 'waiting', toolName: 'book_train' })

    const spans = exporter.getFinishedSpans()
    const [tool] = spans.filter((span) => span.name === 'execute_tool book_train')
    const [created] = spans.filter((span) => span.name === 'create sessions')
    expect(created!.attributes).toEqual({ 'db.system.name': 'redis', 'db.operation.name': 'create', 'db.collection.name': 'sessions' })
    expect(created!.parentSpanContext?.spanId).toBe(tool!.spanContext().spanId)
  })
})
