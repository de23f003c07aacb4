import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Train } from '@/fixtures/book-train/trains'
import { handleChatsRequest } from '../conversations'
import { useRedisCallEnds } from '../sessions/stores/redis-call-ends'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../sessions/testing/redis-server'
import { ENDED_BY_OPERATOR } from './handle-admin-requests'
import { chatsRequest, ndjsonLines, openMemoryChats, personWaiting, startCallsInstance } from './testing/chat-calls-app'

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(() => redis.stop())

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** An instance of the app on the test's Redis: its sessions there, the stops of calls by Redis pub/sub. */
async function instanceOnRedis(chats: Awaited<ReturnType<typeof openMemoryChats>>, prefix: string) {
  const instance = await startCallsInstance({
    chats,
    useStore: () => useRedisSessionStore({ url: redis.url, prefix }),
    useCallEnds: () => useRedisCallEnds({ url: redis.url, prefix }),
  })
  closing.push(instance.close)
  return { instance }
}

describe('with Redis, several instances', () => {
  it('an End on instance A reaches the page whose request is on instance B at once', async () => {
    const prefix = `calls-${Date.now()}:`
    const chats = await openMemoryChats()
    closing.push(chats.destroy)
    const a = await instanceOnRedis(chats, prefix)
    const b = await instanceOnRedis(chats, prefix)

    // The person asks on B, and B holds the request of the page that shows the question.
    const { person, owner, chatId, question } = await personWaiting(b.instance, chats)
    const response = await handleChatsRequest({ app: b.instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting`), endpoint: { action: 'waiting', id: chatId } })
    expect(response.status).toBe(200)
    const lines = ndjsonLines(response)
    const first = lines.next()

    // The operator's view is on A: the call is in the shared store, and A ends it (its sessions announce it).
    expect((await a.instance.chat.listWaiting()).map((call) => call.callId)).toEqual([question.callId])
    expect(await a.instance.chat.endWaiting({ clientId: owner, callId: question.callId, reason: ENDED_BY_OPERATOR })).toBe(true)

    expect(await first).toEqual({ type: 'plugin_session_error', sessionId: question.sessionId, callId: question.callId, error: 'SESSION_ABORTED', message: ENDED_BY_OPERATOR })
    expect(await lines.next()).toBeUndefined()
  })

  it('a Stop pressed on a page served by instance A reaches the same person’s other page, whose request is on instance B, at once', async () => {
    const prefix = `stops-${Date.now()}:`
    const chats = await openMemoryChats()
    closing.push(chats.destroy)
    const a = await instanceOnRedis(chats, prefix)
    const b = await instanceOnRedis(chats, prefix)

    // The person asks on A; their other page follows the question through B.
    const { person, chatId, question } = await personWaiting(a.instance, chats)
    const response = await handleChatsRequest({ app: b.instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting`), endpoint: { action: 'waiting', id: chatId } })
    expect(response.status).toBe(200)
    const lines = ndjsonLines(response)
    const first = lines.next()

    expect((await person.abort(question.sessionId, 'Stopped by the user')).status).toBe(200)
    expect(await first).toEqual({ type: 'plugin_session_error', sessionId: question.sessionId, callId: question.callId, error: 'SESSION_ABORTED', message: 'Stopped by the user' })
    expect(await lines.next()).toBeUndefined()
  })

  it('an answer given on a page served by instance A reaches the same person’s other page, which follows the question through instance B, at once', async () => {
    const prefix = `answers-${Date.now()}:`
    const chats = await openMemoryChats()
    closing.push(chats.destroy)
    const a = await instanceOnRedis(chats, prefix)
    const b = await instanceOnRedis(chats, prefix)

    const { person, chatId, question } = await personWaiting(a.instance, chats)
    const query = `?questions=${encodeURIComponent(question.elicitId)}`
    const response = await handleChatsRequest({ app: b.instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting${query}`), endpoint: { action: 'waiting', id: chatId } })
    expect(response.status).toBe(200)
    const lines = ndjsonLines(response)
    const first = lines.next()

    const trainId = (question.context.trains as Train[])[0]!.id
    expect((await person.answer([{ request: question, result: { action: 'accept', content: { trainId } } }])).status).toBe(200)
    expect(await first).toEqual({ type: 'call_answered', callId: question.callId, elicitId: question.elicitId })
    expect(await lines.next()).toBeUndefined()
  })
})
