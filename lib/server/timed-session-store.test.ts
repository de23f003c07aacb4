import { describe, expect, it } from 'vitest'
import { run } from 'effection'
import { createMemorySessionStore, SessionStoreUnavailableError, type SessionRecord, type SessionStore } from '../sessions'
import { timedSessionStore, type StoreOperationReport } from './timed-session-store'

const record: SessionRecord = {
  format: 1,
  id: 'call-1',
  clientId: 'client-a',
  toolName: 'ask',
  params: {},
  status: 'running',
  journal: [],
  createdAt: 1,
  updatedAt: 1,
  expiresAt: Date.now() + 60_000,
  keepUntil: Date.now() + 120_000,
}

describe('the sessions store, timed', () => {
  it('does what the store does, and tells each operation with its duration', async () => {
    const reports: StoreOperationReport[] = []
    const store = timedSessionStore(createMemorySessionStore(), (report) => reports.push(report))
    const created = await run(() => store.create(record))
    expect(created?.version).toBe(1)
    expect((await run(() => store.get('client-a', 'call-1')))?.record.id).toBe('call-1')
    expect(await run(() => store.countOpen({ clientId: 'client-a', now: Date.now() }))).toEqual({ client: 1, all: 1 })
    expect(reports.map(({ operation, errorType }) => [operation, errorType])).toEqual([
      ['create', undefined],
      ['get', undefined],
      ['countOpen', undefined],
    ])
    for (const { seconds } of reports) expect(seconds).toBeGreaterThanOrEqual(0)
  })

  it('tells a failed operation with its error’s name, and the error still reaches its caller', async () => {
    const reports: StoreOperationReport[] = []
    const down: SessionStore = {
      ...createMemorySessionStore(),
      *get() {
        throw new SessionStoreUnavailableError('the store is down')
      },
    }
    const store = timedSessionStore(down, (report) => reports.push(report))
    await expect(run(() => store.get('client-a', 'call-1'))).rejects.toThrow('the store is down')
    expect(reports).toEqual([{ operation: 'get', seconds: expect.any(Number), errorType: 'SessionStoreUnavailableError' }])
  })
})
