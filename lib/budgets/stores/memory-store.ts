import type { BudgetStore } from '../budget-store'

/**
 * A `BudgetStore` in this process's memory (`SESSION_STORE=memory`, tests): lost on restart and
 * counted by this process only. Only the latest day is kept.
 */
export function createMemoryBudgetStore(): BudgetStore {
  let day = ''
  let counters = new Map<string, number>()
  const of = (asked: string) => (asked === day ? counters : undefined)

  return {
    kind: 'memory',
    *add(clientId, asked, tokens) {
      if (asked > day) {
        day = asked
        counters = new Map()
      }
      const kept = of(asked)
      if (kept) kept.set(clientId, (kept.get(clientId) ?? 0) + tokens)
    },
    *used(clientId, asked) {
      return of(asked)?.get(clientId) ?? 0
    },
    *usage(asked) {
      return [...(of(asked) ?? new Map<string, number>())].map(([clientId, tokens]) => ({ clientId, tokens })).sort((a, b) => b.tokens - a.tokens)
    },
  }
}
