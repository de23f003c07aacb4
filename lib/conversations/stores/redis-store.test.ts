import type { Operation } from 'effection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { createClientIdentity } from '../../http'
import { useConversations } from '../conversations'
import { DEFAULT_CONVERSATION_LIMITS } from '../limits'
import { chatsBrowser } from '../testing/chats-browser'
import { ConversationStoreUnavailableError } from '../errors'
import { openInScope } from '@/lib/testing/in-scope'
import { describeConversationStoreContract } from '../testing/conversation-store-contract'
import { refusedAsOffline } from '@/lib/storage/testing/redis-offline'
import { redisChatKeys, useRedisConversationStore } from './redis-store'
import { createClient } from 'redis'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0
const identity = createClientIdentity({ secret: 'a-secret-for-the-redis-chats-tests-0123456789' })

describeConversationStoreContract('redis', {
  expiresItself: true,
  // Each case gets its own prefix, so that cases never see each other's chats.
  setup: () => useRedisConversationStore({ url: server.url, prefix: `test-${++stores}:` }),
})

describe('redis conversation store', () => {
  it('reads the entries an earlier version wrote, one event each, beside batches', async () => {
    const prefix = 'legacy:'
    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useRedisConversationStore({ url: server.url, prefix }) })
    })
    const client = createClient({ url: server.url })
    await client.connect()
    try {
      const { id } = await opened.run(() => opened.value.create('owner'))
      const turn = await opened.run(() => opened.value.startTurn('owner', id, { text: 'hi' }))
      await client.rPush(redisChatKeys(prefix, 'owner', id).entries, `${turn}:e:${JSON.stringify({ type: 'text', content: 'one event, ' })}`)
      await opened.run(() => opened.value.appendEvents('owner', id, turn, [{ type: 'text', content: 'then a batch' }]))
      const chat = await opened.run(() => opened.value.get('owner', id))
      expect(chat!.turns[0]!.events).toEqual([
        { type: 'text', content: 'one event, ' },
        { type: 'text', content: 'then a batch' },
      ])
    } finally {
      await client.quit()
      await opened.destroy()
    }
  })

  it('fails at once with ConversationStoreUnavailableError while Redis is down', async () => {
    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useRedisConversationStore({ url: server.url, prefix: 'outage:' }) })
    })
    try {
      const { id } = await opened.run(() => opened.value.create('owner'))
      await server.stop()
      const calls: Array<() => Operation<unknown>> = [
        () => opened.value.list('owner'),
        () => opened.value.get('owner', id),
        () => opened.value.startTurn('owner', id, { text: 'hi' }),
      ]
      for (const call of calls) {
        const refusal = await opened.run(call).then(() => undefined, (error: unknown) => error)
        expect(refusal).toBeInstanceOf(ConversationStoreUnavailableError)
        // Refused, not queued until Redis is back: the request gets its 503 now.
        expect(refusal).toSatisfy(refusedAsOffline)
      }
      // The chats API says so as the chat route does: 503 store_unavailable, in the JSON error shape.
      const app = { conversations: opened.value, identity, limits: DEFAULT_CONVERSATION_LIMITS, run: opened.run }
      for (const endpoint of [{ action: 'list' }, { action: 'create' }, { action: 'get', id }] as const) {
        const response = await chatsBrowser(app).send(endpoint)
        expect(response.status).toBe(503)
        expect(await response.json()).toEqual({ error: { code: 'store_unavailable', message: 'Chats cannot be reached right now. Try again in a moment.' } })
      }
    } finally {
      await opened.destroy()
      await server.restart()
    }
  })

  it('says where Redis was when it cannot be reached at start', async () => {
    await expect(openInScope(() => useRedisConversationStore({ url: 'redis://127.0.0.1:1' }))).rejects.toThrow(/Cannot connect to Redis at redis:\/\/127\.0\.0\.1:1.*REDIS_URL/)
  })
})
