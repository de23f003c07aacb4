import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { openInScope } from '@/lib/testing/in-scope'
import { captureServerLog } from '../../telemetry/testing/server-log'
import { createBudget } from '../budget'
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

  it('logs tokens it could not count as one error line, with the store’s reason and never the account, and the turn goes on', async () => {
    const opened = await openInScope(() => useRedisBudgetStore({ url: server.url, prefix: 'count-log:' }))
    const budget = createBudget({ store: opened.value, limitFor: () => 1000, now: () => Date.parse('2026-11-29T12:00:00Z') })
    const log = captureServerLog({ content: false })
    try {
      await opened.run(() => budget.spend('client-alice', 40))
      expect(log.lines).toEqual([])
      await server.stop()
      // Spending is after the model call: what it cannot count is reported, not thrown at the turn.
      await opened.run(() => budget.spend('client-alice', 60))
      expect(log.lines).toEqual([
        {
          time: expect.any(String),
          level: 'error',
          msg: 'a model call’s tokens were not counted',
          code: 'budget_count_failed',
          errorType: 'BudgetStoreUnavailableError',
          detail: expect.stringMatching(/\S/),
        },
      ])
      expect(JSON.stringify(log.lines)).not.toMatch(/alice/)
    } finally {
      log.restore()
      await server.restart()
      await opened.destroy()
    }
  })
})
