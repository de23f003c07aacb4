import { createScope, run, suspend, until, type Operation, type Scope } from 'effection'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SessionStoreUnavailableError, type SessionStore } from '../session-store'
import { startRedisServer, type RedisServer } from '../testing/redis-server'
import { refusedAsOffline } from '@/lib/storage/testing/redis-offline'
import { redisSessionKey, useRedisSessionStore } from './redis-store'
import { describeSessionStoreContract, sessionRecord } from './session-store-contract'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0

describeSessionStoreContract('redis', {
  expiresItself: true,
  *setup() {
    // Each case gets its own prefix, so that cases never see each other's records.
    const prefix = `test-${++stores}:`
    const store = yield* useRedisSessionStore({ url: server.url, prefix })
    return {
      store,
      *corrupt(clientId, id) {
        // Not even a hash: a string where the session's hash was.
        const client = createClient({ url: server.url })
        yield* until(client.connect())
        try {
          yield* until(client.set(redisSessionKey(prefix, clientId, id), 'garbage'))
        } finally {
          client.destroy()
        }
      },
    }
  },
})

/** A store on the test's Redis under `prefix`, in a scope of its own: `destroy` closes both. */
async function openStore(prefix: string): Promise<{ scope: Scope; store: SessionStore; destroy: () => Promise<void> }> {
  const [scope, destroy] = createScope()
  const store = await new Promise<SessionStore>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* useRedisSessionStore({ url: server.url, prefix }))
        yield* suspend()
      })
      .catch(reject)
  })
  return { scope, store, destroy }
}

describe('redis session store', () => {
  it('fails fast while Redis is down, and recovers by itself when it is back', { timeout: 60_000 }, async () => {
    const { scope, store, destroy } = await openStore('outage:')
    try {
      await scope.run(() => store.create(sessionRecord()))

      await server.stop()
      const operations: Array<() => Operation<unknown>> = [
        () => store.get('client-a', 'call-1'),
        () => store.update(sessionRecord(), 1),
        () => store.list({ statuses: ['waiting'], limit: 5 }),
      ]
      for (const operation of operations) {
        const refusal = await scope.run(operation).then(() => undefined, (error: unknown) => error)
        expect(refusal).toBeInstanceOf(SessionStoreUnavailableError)
        // At once: refused as offline, not queued until its reply's deadline.
        expect(refusal).toSatisfy(refusedAsOffline)
      }

      await server.restart()
      // The store reconnects with back-off (at most 1 s between attempts): ask until it answers.
      // The deadline is a safety net for a store that never comes back, not a window: a loaded
      // machine can take seconds to reconnect.
      const deadline = Date.now() + 15_000
      let answer: unknown
      while (answer === undefined) {
        try {
          answer = (await scope.run(() => store.create(sessionRecord({ id: 'after' })))) ?? 'refused'
        } catch (error) {
          if (!(error instanceof SessionStoreUnavailableError) || Date.now() > deadline) throw error
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      // The restarted server is empty: the record written before the outage is gone with it.
      expect(answer).toMatchObject({ version: 1 })
      expect(await scope.run(() => store.get('client-a', 'after'))).toMatchObject({ version: 1 })
    } finally {
      await destroy()
    }
  })

  it('fails a command Redis does not answer within its time-out, and answers again once Redis does', async () => {
    const { scope, store, destroy } = await openStore('hung:')
    try {
      await scope.run(() => store.create(sessionRecord()))
      server.pause()
      try {
        await expect(scope.run(() => store.get('client-a', 'call-1'))).rejects.toThrow(/unavailable: no reply within 500 ms/)
        await expect(scope.run(() => store.update(sessionRecord(), 1))).rejects.toBeInstanceOf(SessionStoreUnavailableError)
      } finally {
        server.unpause()
      }
      // The connection was never lost: the next command is answered, and the record is as it was.
      expect(await scope.run(() => store.get('client-a', 'call-1'))).toMatchObject({ version: 1 })
    } finally {
      await destroy()
    }
  })

  it('fails at start, naming the URL, when Redis cannot be reached', async () => {
    const down = await startRedisServer()
    await down.stop()
    // Refused at once: the connection refused, not a connection attempt that timed out.
    await expect(run(() => useRedisSessionStore({ url: down.url }))).rejects.toThrow(`Cannot connect to Redis at ${down.url}: connect ECONNREFUSED`)
  })
})
