import type { Operation } from 'effection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BudgetStore } from '../budget-store'
import { openInScope, type InScope } from '@/lib/testing/in-scope'

export interface BudgetStoreContractOptions {
  /** Starts a fresh, empty store; it lives until the test ends. */
  setup(): Operation<BudgetStore>
}

/** The cases every `BudgetStore` must pass. Each case gets a fresh store. */
export function describeBudgetStoreContract(name: string, { setup }: BudgetStoreContractOptions): void {
  describe(`${name} budget store (contract)`, () => {
    let opened: InScope<BudgetStore>
    let store: BudgetStore
    const run = <T>(operation: () => Operation<T>) => opened.run(operation)

    beforeEach(async () => {
      opened = await openInScope(setup)
      store = opened.value
    })
    afterEach(() => opened.destroy())

    it('counts an account’s tokens of a day, from nothing', async () => {
      expect(await run(() => store.used('alice', '2026-11-29'))).toBe(0)
      await run(() => store.add('alice', '2026-11-29', 1200))
      await run(() => store.add('alice', '2026-11-29', 34))
      expect(await run(() => store.used('alice', '2026-11-29'))).toBe(1234)
      expect(await run(() => store.used('bob', '2026-11-29'))).toBe(0)
    })

    it('counts every one of many additions made at once', async () => {
      await Promise.all(Array.from({ length: 50 }, () => run(() => store.add('alice', '2026-11-29', 7))))
      expect(await run(() => store.used('alice', '2026-11-29'))).toBe(350)
    })

    it('starts each UTC day from nothing', async () => {
      await run(() => store.add('alice', '2026-11-29', 500))
      await run(() => store.add('alice', '2026-11-30', 20))
      expect(await run(() => store.used('alice', '2026-11-30'))).toBe(20)
    })

    it('lists every account’s use of a day, most used first', async () => {
      await run(() => store.add('alice', '2026-11-29', 10))
      await run(() => store.add('bob', '2026-11-29', 300))
      await run(() => store.add('carol', '2026-11-28', 99))
      expect(await run(() => store.usage('2026-11-29'))).toEqual([
        { clientId: 'bob', tokens: 300 },
        { clientId: 'alice', tokens: 10 },
      ])
      expect(await run(() => store.usage('2026-11-27'))).toEqual([])
    })
  })
}
