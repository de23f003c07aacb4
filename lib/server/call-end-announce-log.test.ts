import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { warnFailure } from '../http/failure-log'
import { announceCall } from '../sessions/call-ends'
import { useRedisCallEnds } from '../sessions/stores/redis-call-ends'
import { startRedisServer, type RedisServer } from '../sessions/testing/redis-server'
import { captureServerLog } from '../telemetry/testing/server-log'
import { heardCalls } from '../sessions/testing/heard-calls'
import { openInScope } from '../testing/in-scope'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

describe('a call’s end that cannot be announced, on the server’s log', () => {
  it('is one warn line with its code, naming neither the person nor the call, and the answer goes on', { timeout: 60_000 }, async () => {
    const ends = await openInScope(() => useRedisCallEnds({ url: server.url, prefix: 'announce-log:' }))
    const log = captureServerLog({ content: false })
    try {
      // Heard on the instance itself while Redis is up: the way works.
      const heard = heardCalls(ends.value, 'client-alice')
      await ends.run(() => announceCall(ends.value, 'client-alice', 'call-one', 'answered', warnFailure))
      expect(await heard.next()).toBe('call-one')
      heard.stop()
      expect(log.lines).toEqual([])

      await server.stop()
      // The sessions announce after the record is written: a failure is reported, not thrown.
      await ends.run(() => announceCall(ends.value, 'client-alice', 'call-two', 'stopped', warnFailure))
      expect(log.lines).toEqual([
        {
          time: expect.any(String),
          level: 'warn',
          msg: 'a call stopped could not be announced to the other instances',
          code: 'call_end_announce_failed',
          errorType: 'SessionStoreUnavailableError',
        },
      ])
      expect(JSON.stringify(log.lines)).not.toMatch(/alice|call-two/)
    } finally {
      log.restore()
      await server.restart()
      await ends.destroy()
    }
  })
})
