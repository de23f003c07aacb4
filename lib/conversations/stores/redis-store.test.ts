import type { Operation } from 'effection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { useConversations } from '../conversations'
import { ConversationStoreUnavailableError } from '../errors'
import { openInScope } from '../testing/in-scope'
import { describeConversationStoreContract } from './conversation-store-contract'
import { useRedisConversationStore } from './redis-store'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0

describeConversationStoreContract('redis', {
  expiresItself: true,
  // Each case gets its own prefix, so that cases never see each other's chats.
  setup: () => useRedisConversationStore({ url: server.url, prefix: `test-${++stores}:` }),
})

describe('redis conversation store', () => {
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
        const started = performance.now()
        await expect(opened.run(call)).rejects.toBeInstanceOf(ConversationStoreUnavailableError)
        // Refused, not queued until Redis is back: the request gets its 503 now.
        expect(performance.now() - started).toBeLessThan(1000)
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
