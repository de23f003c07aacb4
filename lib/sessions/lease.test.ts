import { createScope } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { warnFailure } from '../http/failure-log'
import { captureServerLog } from '../telemetry/testing/server-log'
import { Lease, RENEW_EVERY } from './lease'

const LEASE_MS = 3_000
const closing: Array<() => void | Promise<void>> = []

// On a clock the test moves: a renewal is due when the test says so.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
})
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
  vi.useRealTimers()
})

/** A lease whose renewals the store does not answer (it fails with a message quoting a person's words), reported as the server reports it. */
function failingLease(content: boolean) {
  const log = captureServerLog({ content })
  closing.push(log.restore)
  const [scope, destroy] = createScope()
  closing.push(destroy)
  let tries = 0
  const lease = new Lease({
    scope,
    leaseMs: LEASE_MS,
    version: 1,
    *renew() {
      tries++
      throw new Error('The session store did not answer writing “a table for Ada at 8”')
    },
    report: warnFailure,
  })
  void scope.run(() => lease.keep())
  return { lines: log.lines, tries: () => tries, lease }
}

describe('a lease whose renewal the store does not answer', () => {
  it('is reported once per renewal as a warn line with its code, without the error’s message, and renewed at its next turn', async () => {
    const { lines, tries, lease } = failingLease(false)
    await vi.advanceTimersByTimeAsync(LEASE_MS * RENEW_EVERY)
    expect(tries()).toBe(1)
    expect(lines).toEqual([{ time: expect.any(String), level: 'warn', msg: 'a lease could not be renewed', code: 'lease_renew_failed', errorType: 'Error' }])
    expect(JSON.stringify(lines)).not.toContain('Ada')
    // Not lost: tried again at the next turn, and reported again.
    expect(lease.lost).toBe(false)
    await vi.advanceTimersByTimeAsync(LEASE_MS * RENEW_EVERY)
    expect(tries()).toBe(2)
    expect(lines.map((line) => line.code)).toEqual(['lease_renew_failed', 'lease_renew_failed'])
  })

  it('carries the error’s message with LOG_CONTENT=1', async () => {
    const { lines } = failingLease(true)
    await vi.advanceTimersByTimeAsync(LEASE_MS * RENEW_EVERY)
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', code: 'lease_renew_failed', message: 'The session store did not answer writing “a table for Ada at 8”' })])
  })
})
