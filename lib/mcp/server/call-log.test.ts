import { randomUUID } from 'node:crypto'
import { createScope, type Operation, type Subscription } from 'effection'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemorySessionStore } from '../../sessions'
import { EVENT_LOG_START } from '../../sessions/session-store'
import { captureServerLog } from '../../telemetry/testing/server-log'
import { CallLog } from './call-log'

let log: ReturnType<typeof captureServerLog>
afterEach(() => log.restore())

/** A relayed call's stream whose watcher fails (the store does not answer its read of the call, with a message quoting the call's arguments). */
async function streamWhoseWatcherFails(content: boolean) {
  log = captureServerLog({ content })
  const [scope, destroy] = createScope()
  const store = createMemorySessionStore()
  const callLog = new CallLog(scope, store.events, 1000)
  const callId = randomUUID()
  // The watcher reads the call when a round's lease ends; here the store does not answer.
  function* watch(leaseEnds: Subscription<number, never>): Operation<void> {
    yield* leaseEnds.next()
    throw new Error('the store did not answer the read of the call {"guest":"Ada"}')
  }
  const response = callLog.stream({ callId, after: EVENT_LOG_START, sessionId: 'session', watch })
  await scope.run(() => callLog.running(callId, Date.now() + 60_000, Date.now() + 60_000))
  return { callId, text: await response.text(), destroy }
}

describe('a relayed call’s stream', () => {
  it('reports its watcher’s failure once, as a warn line with its code and no message, and ends', async () => {
    const { callId, text, destroy } = await streamWhoseWatcherFails(false)
    // The stream ends (its client resumes elsewhere), and the operator is told, once.
    expect(text).toBe(`id: ${callId}/0\nretry: 1000\ndata: \n\n`)
    expect(log.lines).toEqual([{ time: expect.any(String), level: 'warn', msg: 'an MCP call’s stream ended early', code: 'mcp_call_stream_failed', errorType: 'Error' }])
    await destroy()
  })

  it('says the failure’s message with LOG_CONTENT=1', async () => {
    const { destroy } = await streamWhoseWatcherFails(true)
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', code: 'mcp_call_stream_failed', message: 'the store did not answer the read of the call {"guest":"Ada"}' })])
    await destroy()
  })
})
