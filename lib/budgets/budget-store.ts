import type { Operation } from 'effection'

/** One account's use of the model on one UTC day. */
export interface DayUsage {
  clientId: string
  /** Tokens the model reported for this account's turns and samples that day, input and output. */
  tokens: number
}

/**
 * Where the model's use is counted: one counter per account (`clientId`) per UTC day
 * (`YYYY-MM-DD`), shared by every instance on one store. Counters of past days may be forgotten
 * after a day.
 */
export interface BudgetStore {
  readonly kind: 'memory' | 'embedded' | 'redis'
  /** Adds `tokens` to the account's counter of `day`, atomically (two instances adding at once both count). */
  add(clientId: string, day: string, tokens: number): Operation<void>
  /** The account's counter of `day` (0 when it has none). */
  used(clientId: string, day: string): Operation<number>
  /** Every account's counter of `day`, most used first. */
  usage(day: string): Operation<DayUsage[]>
}

const STORE_UNAVAILABLE = Symbol.for('chat-app.BudgetStoreUnavailableError')

/** The budgets' store could not be reached (Redis down): a new turn gets a 503 `store_unavailable`. */
export class BudgetStoreUnavailableError extends Error {
  override name = 'BudgetStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

export function isBudgetStoreUnavailable(error: unknown): error is BudgetStoreUnavailableError {
  return error instanceof BudgetStoreUnavailableError || (typeof error === 'object' && error !== null && STORE_UNAVAILABLE in error)
}

/** How long a day's counters are kept: the day, and a day after it for the admin's view. */
export const USAGE_KEPT_DAYS = 2
