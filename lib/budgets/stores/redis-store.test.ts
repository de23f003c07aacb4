import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { openInScope } from '@/lib/testing/in-scope'
import { BudgetStoreUnavailableError } from '../budget-store'
import { describeBudgetStoreContract } from '../testing/budget-store-contract'
import { useRedisBudgetStore } from './redis-store'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0
describeBudgetStoreContract('redis', { setup: () => useRedisBudgetStore({ url: server.url, prefix: `test-${++stores}:` }) })

describe('redis budget store', () => {
  it('shares one count between two instances on the same Redis', async () => {
    const prefix = 'two-instances:'
    const one = await openInScope(() => useRedisBudgetStore({ url: server.url, prefix }))
    const other = await openInScope(() => useRedisBudgetStore({ url: server.url, prefix }))
    try {
      await Promise.all([one.run(() => one.value.add('alice', '2026-11-29', 100)), other.run(() => other.value.add('alice', '2026-11-29', 23))])
      expect(await other.run(() => other.value.used('alice', '2026-11-29'))).toBe(123)
    } finally {
      await one.destroy()
      await other.destroy()
    }
  })

  it('fails at once with BudgetStoreUnavailableError while Redis is down, and counts again when it is back', async () => {
    const opened = await openInScope(() => useRedisBudgetStore({ url: server.url, prefix: 'outage:' }))
    try {
      await server.stop()
      await expect(opened.run(() => opened.value.used('alice', '2026-11-29'))).rejects.toBeInstanceOf(BudgetStoreUnavailableError)
      await expect(opened.run(() => opened.value.add('alice', '2026-11-29', 1))).rejects.toBeInstanceOf(BudgetStoreUnavailableError)
      await server.restart()
      const writer = await openInScope(() => useRedisBudgetStore({ url: server.url, prefix: 'outage:' }))
      try {
        await writer.run(() => writer.value.add('alice', '2026-11-29', 9))
        expect(await writer.run(() => writer.value.used('alice', '2026-11-29'))).toBe(9)
      } finally {
        await writer.destroy()
      }
    } finally {
      await opened.destroy()
    }
  })

  it('says where Redis was when it cannot be reached at start', async () => {
    await expect(openInScope(() => useRedisBudgetStore({ url: 'redis://127.0.0.1:1' }))).rejects.toThrow(/Cannot connect to Redis at redis:\/\/127\.0\.0\.1:1.*REDIS_URL/)
  })
})
