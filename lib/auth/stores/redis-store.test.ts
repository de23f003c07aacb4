import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { openInScope } from '@/lib/testing/in-scope'
import { AuthStoreUnavailableError } from '../auth-store'
import { describeAuthStoreContract } from '../testing/auth-store-contract'
import { useRedisAuthStore } from './redis-store'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0
describeAuthStoreContract('redis', { setup: () => useRedisAuthStore({ url: server.url, prefix: `test-${++stores}:` }) })

describe('redis auth store', () => {
  it('fails with AuthStoreUnavailableError while Redis is down', async () => {
    const opened = await openInScope(() => useRedisAuthStore({ url: server.url, prefix: 'outage:' }))
    try {
      await server.stop()
      await expect(opened.run(() => opened.value.getSession('s', Date.now()))).rejects.toBeInstanceOf(AuthStoreUnavailableError)
    } finally {
      await server.restart()
      await opened.destroy()
    }
  })
})
