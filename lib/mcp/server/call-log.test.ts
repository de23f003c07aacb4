import { randomUUID } from 'node:crypto'
import { createScope, type Operation, type Subscription } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMemorySessionStore } from '../../sessions'
import { EVENT_LOG_START } from '../../sessions/session-store'
import { recordConsoleLines } from '../../testing/console-lines'
import { CallLog } from './call-log'

let logged: string[]
beforeEach(() => {
  logged = recordConsoleLines()
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('a relayed call’s stream', () => {
  it('reports its watcher’s failure once, and ends', async () => {
    const [scope, destroy] = createScope()
    const store = createMemorySessionStore()
    const log = new CallLog(scope, store.events, 1000)
    const callId = randomUUID()
    // The watcher reads the call when a round's lease ends; here the store does not answer.
    function* watch(leaseEnds: Subscription<number, never>): Operation<void> {
      yield* leaseEnds.next()
      throw new Error('the store did not answer the read of the call')
    }
    const response = log.stream({ callId, after: EVENT_LOG_START, sessionId: 'session', watch })
    await scope.run(() => log.running(callId, Date.now() + 60_000, Date.now() + 60_000))

    // The stream ends (its client resumes elsewhere), and the operator is told why.
    expect(await response.text()).toBe(`id: ${callId}/0\nretry: 1000\ndata: \n\n`)
    expect(logged.filter((line) => line.includes('the store did not answer the read of the call'))).toEqual([
      "An MCP call's stream ended early: the store did not answer the read of the call",
    ])
    await destroy()
  })
})
