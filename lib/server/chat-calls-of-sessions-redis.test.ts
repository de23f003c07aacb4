import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { handleChatsRequest } from '../conversations'
import { useRedisCallEnds } from '../sessions/stores/redis-call-ends'
import { useRedisSessionStore } from '../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../sessions/testing/redis-server'
import { openInScope } from '../testing/in-scope'
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

/** An instance of the app on the test's Redis: its sessions there, its ends of calls by Redis pub/sub. */
async function instanceOnRedis(chats: Awaited<ReturnType<typeof openMemoryChats>>, prefix: string) {
  const ends = await openInScope(() => useRedisCallEnds({ url: redis.url, prefix }))
  closing.push(ends.destroy)
  const instance = await startCallsInstance({ chats, ends: ends.value, useStore: () => useRedisSessionStore({ url: redis.url, prefix }) })
  closing.push(instance.close)
  return { instance, ends }
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

    // The operator's view is on A: the call is in the shared store, and A ends it and announces it.
    expect((await a.instance.chat.listWaiting()).map((call) => call.callId)).toEqual([question.callId])
    expect(await a.instance.chat.endWaiting({ clientId: owner, callId: question.callId, reason: ENDED_BY_OPERATOR })).toBe(true)
    await a.ends.run(() => a.ends.value.announce(owner, question.callId))

    expect(await first).toEqual({ type: 'plugin_session_error', sessionId: question.sessionId, callId: question.callId, error: 'SESSION_ABORTED', message: ENDED_BY_OPERATOR })
    expect(await lines.next()).toBeUndefined()
  })

})
