import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { createMemorySessionStore } from '../../sessions'
import { RoundLedger } from './round-ledger'

describe('RoundLedger', () => {
  it('lets one round claim a state, keeps its answer for the next, and frees a state whose round was given up', () =>
    run(function* () {
      const ledger = new RoundLedger(createMemorySessionStore(), 60_000)
      const first = yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })
      expect(first).toEqual({ kind: 'claimed', version: 1 })
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'running' })
      const result = { content: [{ type: 'text', text: '{}' }], structuredContent: { ticketNumber: 'TKT-1' } }
      yield* ledger.answer({ stateId: 's1', toolName: 'book_flight', version: 1, result })
      expect(yield* ledger.claim({ stateId: 's1', toolName: 'book_flight' })).toEqual({ kind: 'answered', result })

      expect(yield* ledger.claim({ stateId: 's2', toolName: 'book_flight' })).toEqual({ kind: 'claimed', version: 1 })
      yield* ledger.release('s2')
      expect(yield* ledger.claim({ stateId: 's2', toolName: 'book_flight' })).toEqual({ kind: 'claimed', version: 1 })
    }))
})
