import { all, createScope, sleep, spawn, suspend, type Operation, type Scope } from 'effection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SESSION_RECORD_FORMAT, SessionRecordError, type SessionRecord } from '../session-record'
import { moveWaitingSessions } from '../move-waiting'
import { EVENT_LOG_START, type SessionStore } from '../session-store'

/** A store under test, and a way to reach under it. */
export interface SessionStoreHarness {
  store: SessionStore
  /** Replaces what is stored for the session with bytes that are not a session record. */
  corrupt(clientId: string, id: string): Operation<void>
}

export interface SessionStoreContractOptions {
  /** The store forgets records at `keepUntil` by itself (Redis), so `sweep` returns undefined. */
  expiresItself: boolean
  /** Starts a fresh, empty store; it lives until the test ends. */
  setup(): Operation<SessionStoreHarness>
}

const hour = 60 * 60 * 1000

/** A valid record; `overrides` change any field. */
export function sessionRecord(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const now = Date.now()
  return {
    format: SESSION_RECORD_FORMAT,
    id: 'call-1',
    clientId: 'client-a',
    toolName: 'book_flight',
    params: { from: 'LHR', to: 'JFK' },
    status: 'waiting',
    journal: [{ seq: 1, kind: 'step', name: 'quote', value: { price: 420 } }],
    pending: { seq: 2, key: 'seat', elicitId: 'elicit-1', message: 'Which seat?', context: { rows: 30 } },
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 60_000,
    keepUntil: now + hour,
    ...overrides,
  }
}

/**
 * Defines the cases every `SessionStore` must pass, in a `describe` named after the store.
 * Each case gets a fresh store from `setup`, in an Effection scope destroyed after the case.
 */
export function describeSessionStoreContract(name: string, { expiresItself, setup }: SessionStoreContractOptions): void {
  describe(`${name} session store (contract)`, () => {
    let scope: Scope
    let destroy: () => Promise<void>
    let harness: SessionStoreHarness
    let store: SessionStore
    const run = <T>(operation: () => Operation<T>): Promise<T> => scope.run(operation)

    beforeEach(async () => {
      ;[scope, destroy] = createScope()
      harness = await new Promise<SessionStoreHarness>((resolve, reject) => {
        scope
          .run(function* () {
            resolve(yield* setup())
            yield* suspend()
          })
          .catch(reject)
      })
      store = harness.store
    })
    afterEach(() => destroy())

    it('gives back a copy of what was created, at version 1', async () => {
      const record = sessionRecord()
      expect(await run(() => store.create(record))).toEqual({ record, version: 1 })
      const stored = await run(() => store.get('client-a', 'call-1'))
      expect(stored).toEqual({ record, version: 1 })
      expect(stored!.record).not.toBe(record)
      record.journal.push({ seq: 2, kind: 'sample', text: 'changed after the write' })
      expect((await run(() => store.get('client-a', 'call-1')))!.record.journal).toHaveLength(1)
    })

    it('creates a record only once', async () => {
      await run(() => store.create(sessionRecord()))
      expect(await run(() => store.create(sessionRecord({ toolName: 'other' })))).toBeUndefined()
      expect((await run(() => store.get('client-a', 'call-1')))!.record.toolName).toBe('book_flight')
    })

    it('updates a record that is still at the version named, and refuses a stale version', async () => {
      await run(() => store.create(sessionRecord()))
      const running = sessionRecord({ status: 'running', pending: undefined })
      expect(await run(() => store.update(running, 1))).toBe(2)
      expect(await run(() => store.get('client-a', 'call-1'))).toEqual({ record: running, version: 2 })

      expect(await run(() => store.update(sessionRecord({ status: 'aborted' }), 1))).toBeUndefined()
      expect(await run(() => store.get('client-a', 'call-1'))).toEqual({ record: running, version: 2 })
    })

    it('lets exactly one of two concurrent updates naming the same version win', async () => {
      await run(() => store.create(sessionRecord()))
      const first = sessionRecord({ status: 'running', toolName: 'first' })
      const second = sessionRecord({ status: 'running', toolName: 'second' })
      const results = await run(() => all([store.update(first, 1), store.update(second, 1)]))
      expect(results.filter((result) => result === 2)).toHaveLength(1)
      expect(results.filter((result) => result === undefined)).toHaveLength(1)
      const winner = results[0] === 2 ? first : second
      expect(await run(() => store.get('client-a', 'call-1'))).toEqual({ record: winner, version: 2 })
    })

    it('does not update a record that does not exist', async () => {
      expect(await run(() => store.update(sessionRecord(), 1))).toBeUndefined()
      expect(await run(() => store.get('client-a', 'call-1'))).toBeUndefined()
    })

    it('deletes a record, and deleting it again does nothing', async () => {
      await run(() => store.create(sessionRecord()))
      await run(() => store.delete('client-a', 'call-1'))
      expect(await run(() => store.get('client-a', 'call-1'))).toBeUndefined()
      await run(() => store.delete('client-a', 'call-1'))
      expect(await run(() => store.create(sessionRecord()))).toMatchObject({ version: 1 })
    })

    it('keeps the records of each client apart', async () => {
      await run(() => store.create(sessionRecord()))
      expect(await run(() => store.get('client-b', 'call-1'))).toBeUndefined()
      expect(await run(() => store.update(sessionRecord({ clientId: 'client-b' }), 1))).toBeUndefined()
      expect(await run(() => store.create(sessionRecord({ clientId: 'client-b', toolName: 'theirs' })))).toMatchObject({ version: 1 })
      await run(() => store.delete('client-b', 'call-1'))
      expect((await run(() => store.get('client-a', 'call-1')))!.record.toolName).toBe('book_flight')
      // Ids with the separators a store might use do not run into each other.
      await run(() => store.create(sessionRecord({ clientId: 'a:b', id: 'c' })))
      expect(await run(() => store.get('a', 'b:c'))).toBeUndefined()
    })

    it('forgets a record past its keepUntil', async () => {
      const now = Date.now()
      await run(() => store.create(sessionRecord({ id: 'gone', keepUntil: now - 1 })))
      await run(() => store.create(sessionRecord({ id: 'kept', keepUntil: now + hour })))
      await run(() => store.sweep(now))
      expect(await run(() => store.get('client-a', 'gone'))).toBeUndefined()
      expect(await run(() => store.get('client-a', 'kept'))).toMatchObject({ version: 1 })
    })

    it('forgets a record whose keepUntil an update moved into the past', async () => {
      const now = Date.now()
      await run(() => store.create(sessionRecord()))
      expect(await run(() => store.update(sessionRecord({ status: 'completed', keepUntil: now - 1 }), 1))).toBe(2)
      await run(() => store.sweep(now))
      expect(await run(() => store.get('client-a', 'call-1'))).toBeUndefined()
    })

    if (expiresItself) {
      it('has nothing to sweep: it forgets records by itself', async () => {
        await run(() => store.create(sessionRecord({ keepUntil: Date.now() + hour })))
        expect(await run(() => store.sweep(Date.now()))).toBeUndefined()
      })
    } else {
      it('says when the next record falls due, after its keepUntil moved too', async () => {
        const now = Date.now()
        expect(await run(() => store.sweep(now))).toBeUndefined()
        await run(() => store.create(sessionRecord({ id: 'late', keepUntil: now + 3 * hour })))
        await run(() => store.create(sessionRecord({ id: 'soon', keepUntil: now + hour })))
        expect(await run(() => store.sweep(now))).toBe(now + hour)
        expect(await run(() => store.update(sessionRecord({ id: 'soon', keepUntil: now + 2 * hour }), 1))).toBe(2)
        expect(await run(() => store.sweep(now))).toBe(now + 2 * hour)
        expect(await run(() => store.sweep(now + 2 * hour))).toBe(now + 3 * hour)
        expect(await run(() => store.get('client-a', 'soon'))).toBeUndefined()
        expect(await run(() => store.get('client-a', 'late'))).toMatchObject({ version: 1 })
        expect(await run(() => store.sweep(now + 3 * hour))).toBeUndefined()
      })
    }

    it('lists records by status, at most limit of them', async () => {
      for (let index = 0; index < 5; index++) await run(() => store.create(sessionRecord({ id: `waiting-${index}` })))
      await run(() => store.create(sessionRecord({ id: 'running', status: 'running' })))
      await run(() => store.create(sessionRecord({ id: 'done', status: 'completed', clientId: 'client-b' })))
      // A record that changed status is listed under its new status only.
      await run(() => store.update(sessionRecord({ id: 'waiting-4', status: 'failed' }), 1))

      const waiting = await run(() => store.list({ statuses: ['waiting'], limit: 10 }))
      expect(waiting.map((record) => record.id).sort()).toEqual(['waiting-0', 'waiting-1', 'waiting-2', 'waiting-3'])
      expect(await run(() => store.list({ statuses: ['waiting'], limit: 2 }))).toHaveLength(2)
      const ended = await run(() => store.list({ statuses: ['completed', 'failed'], limit: 10 }))
      expect(ended.map((record) => record.id).sort()).toEqual(['done', 'waiting-4'])
      expect(await run(() => store.list({ statuses: ['aborted'], limit: 10 }))).toEqual([])
      expect(await run(() => store.list({ statuses: ['waiting', 'running'], limit: 0 }))).toEqual([])
    })

    it('counts open sessions (waiting or running, not expired) per client and in total, as records change', async () => {
      const now = Date.now()
      /** The client's count, or with no client the whole store's (each read asks for both). */
      const count = async (clientId?: string, at = now) => {
        const open = await run(() => store.countOpen({ clientId: clientId ?? 'nobody', now: at }))
        return clientId === undefined ? open.all : open.client
      }
      expect(await count()).toBe(0)
      expect(await count('client-a')).toBe(0)
      await run(() => store.create(sessionRecord({ id: 'a-waiting', expiresAt: now + 60_000 })))
      await run(() => store.create(sessionRecord({ id: 'a-running', status: 'running', pending: undefined, expiresAt: now + 10_000 })))
      await run(() => store.create(sessionRecord({ id: 'a-expired', expiresAt: now - 1 })))
      await run(() => store.create(sessionRecord({ id: 'a-done', status: 'completed', pending: undefined, expiresAt: now })))
      await run(() => store.create(sessionRecord({ id: 'b-waiting', clientId: 'client-b', expiresAt: now + 60_000 })))
      // Names that a store might split on do not count under another client.
      await run(() => store.create(sessionRecord({ id: 'x', clientId: 'client-a:x', expiresAt: now + 60_000 })))
      expect(await count('client-a')).toBe(2)
      expect(await count('client-b')).toBe(1)
      expect(await count('client-a:x')).toBe(1)
      expect(await count('nobody')).toBe(0)
      expect(await count()).toBe(4)
      expect(await run(() => store.countOpen({ clientId: 'client-a', now }))).toEqual({ client: 2, all: 4 })
      // Time passes: the running one's lease ends first.
      expect(await count('client-a', now + 20_000)).toBe(1)
      expect(await count(undefined, now + 20_000)).toBe(3)

      // A session that ends, or is deleted, is no longer open; one whose expiry moved counts by its new expiry.
      expect(await run(() => store.update(sessionRecord({ id: 'a-running', status: 'aborted', pending: undefined, expiresAt: now }), 1))).toBe(2)
      await run(() => store.delete('client-b', 'b-waiting'))
      expect(await run(() => store.update(sessionRecord({ id: 'a-expired', status: 'running', pending: undefined, expiresAt: now + 5_000 }), 1))).toBe(2)
      expect(await count('client-a')).toBe(2)
      expect(await count('client-b')).toBe(0)
      expect(await count()).toBe(3)
      expect(await count('client-a', now + 6_000)).toBe(1)
      // Forgotten records are not counted either.
      await run(() => store.sweep(now + 2 * hour))
      expect(await count(undefined, now - 1)).toBe(expiresItself ? 3 : 0)
    })

    it('creates a session only within the limits on open sessions, counted in the same step', async () => {
      const now = Date.now()
      const limits = { perClient: 2, all: 3, now }
      const create = (overrides: Partial<SessionRecord>) => run(() => store.create(sessionRecord(overrides), limits))
      expect(await create({ id: 'a-1' })).toMatchObject({ version: 1 })
      // Neither an expired waiting session nor an ended one counts.
      expect(await create({ id: 'a-expired', expiresAt: now - 1 })).toMatchObject({ version: 1 })
      expect(await create({ id: 'a-done', status: 'completed', pending: undefined, expiresAt: now })).toMatchObject({ version: 1 })
      expect(await create({ id: 'a-2', status: 'running', pending: undefined, expiresAt: now + 10_000 })).toMatchObject({ version: 1 })
      await expect(create({ id: 'a-3' })).rejects.toMatchObject({ name: 'SessionLimitError', which: 'client', limit: 2 })
      expect(await run(() => store.get('client-a', 'a-3'))).toBeUndefined()
      // A key that is taken is reported as taken, limit or not.
      expect(await create({ id: 'a-1' })).toBeUndefined()
      // Another client is under its own limit, until the store's is reached.
      expect(await create({ id: 'b-1', clientId: 'client-b' })).toMatchObject({ version: 1 })
      await expect(create({ id: 'b-2', clientId: 'client-b' })).rejects.toMatchObject({ name: 'SessionLimitError', which: 'all', limit: 3 })
      // Without limits nothing is counted; later, as leases end, there is room again.
      expect(await run(() => store.create(sessionRecord({ id: 'b-3', clientId: 'client-b' })))).toMatchObject({ version: 1 })
      expect(await run(() => store.create(sessionRecord({ id: 'a-4' }), { perClient: 2, now: now + 20_000 }))).toMatchObject({ version: 1 })
    })

    it('lets no more sessions than the limit be created by creates at the same moment', async () => {
      const limits = { perClient: 3, now: Date.now() }
      const outcomes = await run(() =>
        all(
          Array.from({ length: 8 }, (_, index) =>
            (function* () {
              try {
                return (yield* store.create(sessionRecord({ id: `same-moment-${index}` }), limits)) ? 'created' : 'taken'
              } catch (error) {
                return (error as Error).name
              }
            })(),
          ),
        ),
      )
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(3)
      expect(outcomes.filter((outcome) => outcome === 'SessionLimitError')).toHaveLength(5)
    })

    it('lists a client’s open sessions soonest to expire first, as countOpen counts them', async () => {
      const now = Date.now()
      await run(() => store.create(sessionRecord({ id: 'later', expiresAt: now + 60_000 })))
      await run(() => store.create(sessionRecord({ id: 'sooner', status: 'running', pending: undefined, expiresAt: now + 10_000 })))
      await run(() => store.create(sessionRecord({ id: 'expired', expiresAt: now - 1 })))
      await run(() => store.create(sessionRecord({ id: 'done', status: 'completed', pending: undefined, expiresAt: now + 90_000 })))
      await run(() => store.create(sessionRecord({ id: 'other', clientId: 'client-a:x', expiresAt: now + 5_000 })))
      expect(await run(() => store.openOf({ clientId: 'client-a', now, limit: 10 }))).toEqual([
        { id: 'sooner', expiresAt: now + 10_000 },
        { id: 'later', expiresAt: now + 60_000 },
      ])
      expect(await run(() => store.openOf({ clientId: 'client-a', now, limit: 1 }))).toEqual([{ id: 'sooner', expiresAt: now + 10_000 }])
      // Used again: its expiry moves, and so does its place.
      expect(await run(() => store.update(sessionRecord({ id: 'sooner', status: 'running', pending: undefined, expiresAt: now + 70_000 }), 1))).toBe(2)
      expect((await run(() => store.openOf({ clientId: 'client-a', now, limit: 10 }))).map((open) => open.id)).toEqual(['later', 'sooner'])
    })

    it('moves a client’s waiting sessions to another (a browser’s to its account), once, leaving the running ones', async () => {
      const now = Date.now()
      const waiting = sessionRecord({ id: 'call-waiting' })
      const running = sessionRecord({ id: 'call-running', status: 'running', pending: undefined })
      await run(() => store.create(waiting))
      await run(() => store.create(running))
      expect(await run(() => moveWaitingSessions(store, { from: 'client-a', to: 'account-a', now }))).toBe(1)
      expect(await run(() => store.get('account-a', 'call-waiting'))).toEqual({ record: { ...waiting, clientId: 'account-a' }, version: 1 })
      expect(await run(() => store.get('client-a', 'call-waiting'))).toBeUndefined()
      expect(await run(() => store.countOpen({ clientId: 'account-a', now }))).toEqual({ client: 1, all: 2 })
      expect(await run(() => store.get('client-a', 'call-running'))).toMatchObject({ record: { status: 'running' } })
      // A repeat moves nothing; one interrupted after the copy only removes what was left behind.
      expect(await run(() => moveWaitingSessions(store, { from: 'client-a', to: 'account-a', now }))).toBe(0)
      await run(() => store.create(waiting))
      expect(await run(() => moveWaitingSessions(store, { from: 'client-a', to: 'account-a', now }))).toBe(1)
      expect(await run(() => store.get('client-a', 'call-waiting'))).toBeUndefined()
      expect(await run(() => store.get('account-a', 'call-waiting'))).toMatchObject({ version: 1 })
    })

    it('keeps event streams in order, bounded, apart from each other, and forgets a deleted one', async () => {
      const keepUntil = Date.now() + 60_000
      const ids = await run(() => store.events.append('call-1', ['one', 'two'], { maxLength: 100, keepUntil }))
      await run(() => store.events.append('call-2', ['elsewhere'], { maxLength: 100, keepUntil }))
      expect((await run(() => store.events.read('call-1', EVENT_LOG_START))).map((event) => event.data)).toEqual(['one', 'two'])
      expect((await run(() => store.events.read('call-1', ids[0]!))).map((event) => event.data)).toEqual(['two'])
      const [three] = await run(() => store.events.append('call-1', ['three'], { maxLength: 100, keepUntil }))
      expect(await run(() => store.events.read('call-1', ids[1]!))).toEqual([{ id: three, data: 'three' }])
      // Bounded: the newest are kept (Redis trims approximately, so only an upper bound on what is gone is certain).
      await run(() => store.events.append('bounded', Array.from({ length: 300 }, (_, index) => `event ${index}`), { maxLength: 10, keepUntil }))
      const kept = await run(() => store.events.read('bounded', EVENT_LOG_START))
      expect(kept.at(-1)!.data).toBe('event 299')
      expect(kept.length).toBeLessThan(300)
      await run(() => store.events.delete('call-1'))
      await run(() => store.events.append('call-1', ['after'], { maxLength: 100, keepUntil }))
      expect((await run(() => store.events.read('call-1', EVENT_LOG_START))).map((event) => event.data)).toEqual(['after'])
    })

    it('wakes a reader waiting on an empty stream when an event is appended, and a halted reader leaves nothing waiting', async () => {
      const keepUntil = Date.now() + 60_000
      const read = await run(function* () {
        const reader = yield* spawn(() => store.events.read('waited', EVENT_LOG_START))
        // The reader is waiting (Redis: blocked in XREAD) before anything is appended.
        yield* sleep(50)
        yield* store.events.append('waited', ['woken'], { maxLength: 10, keepUntil })
        return yield* reader
      })
      expect(read.map((event) => event.data)).toEqual(['woken'])
      await run(function* () {
        const reader = yield* spawn(() => store.events.read('abandoned', EVENT_LOG_START))
        yield* sleep(20)
        yield* reader.halt()
      })
      // The store still answers, and a new reader gets what is appended.
      await run(() => store.events.append('abandoned', ['later'], { maxLength: 10, keepUntil }))
      expect((await run(() => store.events.read('abandoned', EVENT_LOG_START))).map((event) => event.data)).toEqual(['later'])
    })

    it('refuses a corrupted record with SessionRecordError, and lists the others', async () => {
      await run(() => store.create(sessionRecord()))
      await run(() => store.create(sessionRecord({ id: 'call-2' })))
      await run(() => harness.corrupt('client-a', 'call-1'))
      await expect(run(() => store.get('client-a', 'call-1'))).rejects.toBeInstanceOf(SessionRecordError)
      expect((await run(() => store.list({ statuses: ['waiting'], limit: 10 }))).map((record) => record.id)).toEqual(['call-2'])
      await run(() => store.delete('client-a', 'call-1'))
      expect(await run(() => store.get('client-a', 'call-1'))).toBeUndefined()
    })
  })
}
