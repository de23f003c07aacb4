import { createScope, suspend } from 'effection'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SessionStore } from '../sessions'
import { useRedisSessionStore, type RedisOutage } from '../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../sessions/testing/redis-server'
import { captureServerLog } from '../telemetry/testing/server-log'
import { logRedisOutage } from './redis-outage-log'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

const closing: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

describe('Redis out of reach, on the server’s log', () => {
  it('is one warn line when the chat’s session store loses Redis and one when it has it again, each with its code, once', { timeout: 60_000 }, async () => {
    const log = captureServerLog({ content: false })
    closing.push(log.restore)
    // Each outage the store is told of, logged as the server logs it; `told` resolves at the next.
    let heard = () => {}
    const told = () => new Promise<void>((resolve) => (heard = resolve))
    const onOutage = (outage: RedisOutage) => {
      logRedisOutage(outage)
      heard()
    }
    const [scope, destroy] = createScope()
    closing.push(destroy)
    await new Promise<SessionStore>((resolve, reject) => {
      scope
        .run(function* () {
          resolve(yield* useRedisSessionStore({ url: server.url, prefix: 'outage-log:', onOutage }))
          yield* suspend()
        })
        .catch(reject)
    })
    expect(log.lines).toEqual([])

    const lost = told()
    await server.stop()
    await lost
    const back = told()
    await server.restart()
    await back

    expect(log.lines).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'Redis is unreachable; reconnecting', code: 'redis_unreachable', redis: server.url, detail: expect.stringMatching(/\S/) },
      { time: expect.any(String), level: 'warn', msg: 'Redis is reachable again', code: 'redis_reachable', redis: server.url },
    ])
  })
})
