import { run } from 'effection'
import { describe, expect, it, vi } from 'vitest'
import { createMemorySessionStore } from './stores/memory-store'
import { RoundLedger } from './round-ledger'
import { warnFailure } from '../http/failure-log'

describe('RoundLedger', () => {
  it('lets one round claim a state, keeps its answer for the next, and frees a state whose round was given up', () =>
    run(function* () {
      const ledger = new RoundLedger(createMemorySessionStore(), 60_000, warnFailure)
      const first = yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })
      expect(first).toEqual({ kind: 'claimed', version: 1 })
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'running', runningUntil: expect.any(Number) })
      const result = { content: [{ type: 'text', text: '{}' }], structuredContent: { ticketNumber: 'TKT-1' } }
      yield* ledger.answer({ stateId: 's1', toolName: 'book_flight', version: 1, result })
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'answered', result })

      expect(yield* ledger.claim({ stateId: 's2', toolName: 'book_flight' })).toEqual({ kind: 'claimed', version: 1 })
      yield* ledger.release('s2')
      expect(yield* ledger.claim({ stateId: 's2', toolName: 'book_flight' })).toEqual({ kind: 'claimed', version: 1 })
    }))

  it('lets a claim whose lease passed be taken over, once; a renewed one is not, and its first runner then records nothing', () =>
    run(function* () {
      // On a clock the test moves: no stall of the machine between two of these steps passes the lease.
      vi.useFakeTimers({ toFake: ['Date'] })
      const ledger = new RoundLedger(createMemorySessionStore(), 60_000, warnFailure, 1_000)
      const first = yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })
      expect(first).toEqual({ kind: 'claimed', version: 1 })
      // Renewed by its runner: still its.
      const renewed = yield* ledger.renew({ stateId: 's1', toolName: 'book_flight', version: 1, runningUntil: Date.now() + 1_000 })
      expect(renewed).toBe(2)
      const running = yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })
      expect(running.kind).toBe('running')
      // Its runner stops renewing: once its lease has passed, the first to claim again takes it, the next does not.
      vi.setSystemTime((running as { runningUntil: number }).runningUntil + 1)
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'claimed', version: 3 })
      expect((yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).kind).toBe('running')
      // The runner presumed dead can no longer renew.
      expect(yield* ledger.renew({ stateId: 's1', toolName: 'book_flight', version: 2, runningUntil: Date.now() + 1_000 })).toBeUndefined()
      const result = { content: [], structuredContent: { ticketNumber: 'TKT-2' } }
      yield* ledger.answer({ stateId: 's1', toolName: 'book_flight', version: 3, result })
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'answered', result })
    }).finally(() => vi.useRealTimers()))
})
