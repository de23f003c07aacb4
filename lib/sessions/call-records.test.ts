import { createScope, type Operation } from 'effection'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CallRecords } from './call-records'
import { createMemorySessionStore } from './stores/memory-store'
import { warnFailure } from '../http/failure-log'

interface Call {
  toolName: string
  answers: string[]
}

const LEASE_MS = 3_000
const scopes: Array<() => Promise<void>> = []

// On a clock the tests move: a lease passes when a test says so, never by a stall of the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
})
afterEach(async () => {
  for (const destroy of scopes.splice(0)) await destroy()
  vi.useRealTimers()
})

/** Two instances' views of one store's calls, each with its own long-lived scope. */
function twoInstances() {
  const store = createMemorySessionStore()
  return [0, 1].map(() => {
    const [scope, destroy] = createScope()
    scopes.push(destroy)
    const records = new CallRecords<Call>(store, { scope, keepMs: 60_000, leaseMs: LEASE_MS, report: warnFailure })
    return { records, run: <T>(operation: () => Operation<T>) => scope.run(operation) }
  })
}

describe('CallRecords', () => {
  it('keeps a call between its rounds: of two answers completing a round, one runs it; its lease is renewed while it runs, and its last write ends it', async () => {
    const [a, b] = twoInstances()
    const call: Call = { toolName: 'reserve_table', answers: [] }
    expect(await a!.run(() => a!.records.create('call-1', call, 'waiting'))).toBeDefined()
    // Its id is taken: a second create writes nothing.
    expect(await b!.run(() => b!.records.create('call-1', call, 'waiting'))).toBeUndefined()

    const kept = (await a!.run(() => a!.records.get('call-1')))!
    expect(kept).toMatchObject({ callId: 'call-1', call, status: 'waiting' })
    expect(kept.runningUntil).toBeUndefined()
    const answered = { ...call, answers: ['20:00'] }
    const announced: number[] = []
    const round = await a!.run(() => a!.records.run(kept, answered, function* ({ runningUntil }) {
      announced.push(runningUntil)
    }))
    expect(round).toBeDefined()
    // The other instance read the same version: its run is refused.
    expect(await b!.run(() => b!.records.run(kept, answered))).toBeUndefined()
    const running = (await b!.run(() => b!.records.get('call-1')))!
    expect(running).toMatchObject({ status: 'running', call: answered, runningUntil: announced[0] })

    // Renewed every third of the lease while the round runs: past its first end, it is still the runner's.
    const renewing = a!.run(() => round!.keep())
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    const renewed = (await b!.run(() => b!.records.get('call-1')))!
    expect(renewed.runningUntil).toBeGreaterThan(announced[0]!)
    expect(round!.lost).toBe(false)

    expect(await round!.end({ ...answered, answers: [] }, 'completed')).toBeDefined()
    await renewing.halt()
    expect(await b!.run(() => b!.records.get('call-1'))).toMatchObject({ status: 'completed', call: { answers: [] } })
    expect((await b!.run(() => b!.records.get('call-1')))!.runningUntil).toBeUndefined()
  })

  it('lets a round whose runner stopped renewing be taken over once; the first runner then writes nothing', async () => {
    const [a, b] = twoInstances()
    const call: Call = { toolName: 'reserve_table', answers: ['20:00'] }
    await a!.run(() => a!.records.create('call-2', call, 'waiting'))
    const first = await a!.run(function* () {
      return yield* a!.records.run((yield* a!.records.get('call-2'))!, call)
    })
    // Its runner renews nothing (it died): once the lease has passed, another instance takes the round over.
    await vi.advanceTimersByTimeAsync(LEASE_MS)
    const lapsed = (await b!.run(() => b!.records.get('call-2')))!
    expect(lapsed.runningUntil).toBeLessThanOrEqual(Date.now())
    const taken = await b!.run(() => b!.records.run(lapsed, lapsed.call))
    expect(taken).toBeDefined()
    expect(await a!.run(() => a!.records.run(lapsed, lapsed.call))).toBeUndefined()

    // The first runner, alive after all, learns it at its next renewal, and its last write is refused.
    const renewing = a!.run(() => first!.keep())
    await vi.advanceTimersByTimeAsync(LEASE_MS / 3)
    expect(first!.lost).toBe(true)
    await renewing
    expect(await first!.end({ ...call, answers: ['first'] }, 'completed')).toBeUndefined()
    expect(await taken!.end({ ...call, answers: [] }, 'waiting')).toBeDefined()
    expect(await b!.run(() => b!.records.get('call-2'))).toMatchObject({ status: 'waiting', call: { answers: [] } })
  })

  it('finds a call by the key its adapter indexed it under', async () => {
    const [a] = twoInstances()
    await a!.run(() => a!.records.index('session-1 7', 'call-3', 'reserve_table'))
    expect(await a!.run(() => a!.records.callIdOf('session-1 7'))).toBe('call-3')
    expect(await a!.run(() => a!.records.callIdOf('session-1 8'))).toBeUndefined()
  })
})
