import type { Operation } from 'effection'
import type { SessionStore } from '../sessions'

/** What `timedSessionStore` tells of each operation: its name, its duration, and how it failed (`halted`: its caller stopped waiting). */
export interface StoreOperationReport {
  operation: string
  seconds: number
  errorType?: string
}

/**
 * `store` with the duration of each read and write of its records told to `observe` (the
 * server's `db.client.operation.duration`). Only a wrapper: what the store does and returns is
 * unchanged. The event log's reads are not timed: they wait for an event by design.
 */
export function timedSessionStore(store: SessionStore, observe: (report: StoreOperationReport) => void): SessionStore {
  function timed<Args extends unknown[], T>(operation: string, run: (...args: Args) => Operation<T>): (...args: Args) => Operation<T> {
    return function* (...args) {
      const started = performance.now()
      let errorType: string | undefined = 'halted'
      try {
        const value = yield* run(...args)
        errorType = undefined
        return value
      } catch (error) {
        errorType = error instanceof Error ? error.name : 'unknown'
        throw error
      } finally {
        observe({ operation, seconds: (performance.now() - started) / 1000, errorType })
      }
    }
  }
  return {
    kind: store.kind,
    events: store.events,
    get: timed('get', (clientId, id) => store.get(clientId, id)),
    create: timed('create', (record, limits) => store.create(record, limits)),
    update: timed('update', (record, version) => store.update(record, version)),
    delete: timed('delete', (clientId, id) => store.delete(clientId, id)),
    sweep: timed('sweep', (now) => store.sweep(now)),
    list: timed('list', (options) => store.list(options)),
    countOpen: timed('countOpen', (options) => store.countOpen(options)),
    openOf: timed('openOf', (options) => store.openOf(options)),
  }
}
