import type { Operation } from 'effection'
import { ChatRequestError } from '../http/errors'
import { logFailure } from '../http/failure-log'
import { BudgetExhaustedError } from './budget-exhausted'
import { isBudgetStoreUnavailable, type BudgetStore } from './budget-store'

/** The daily limit of an account's model tokens; undefined: that account has none. */
export type LimitFor = (clientId: string) => number | undefined

/** One account's use of today, as the admin sees it. */
export interface AccountUsage {
  clientId: string
  tokens: number
  /** Its daily limit; null when it has none. */
  limit: number | null
}

/**
 * The model budgets: tokens the model reports for each account's turns and samples, counted per
 * UTC day in a store every instance shares, and checked before a new message reaches the model.
 * The chat server is handed one only when a budget is configured, so with none nothing is read
 * or written.
 */
export interface Budget {
  /**
   * Refuses (`BudgetExhaustedError`, a 429) when `clientId` has a limit and has used it today; a
   * store that cannot be reached is a 503 `store_unavailable`. Reads nothing for an account
   * without a limit.
   */
  check(clientId: string): Operation<void>
  /**
   * Counts `tokens` (input and output, as the model reported them) to `clientId`'s today. Never
   * fails: work the model has done is not undone by a store that cannot count it (it is logged).
   */
  spend(clientId: string, tokens: number): Operation<void>
  /** Every account's use of today with its limit, and when today ends. */
  usage(): Operation<{ day: string; resetsAt: string; accounts: AccountUsage[] }>
}

export interface BudgetOptions {
  store: BudgetStore
  /** Which daily limit applies to an account (`lib/server/budget-instance.ts` wires it from the environment). */
  limitFor: LimitFor
  /** The clock (epoch ms); tests set it. */
  now?: () => number
}

/** The UTC day of `time` (`YYYY-MM-DD`). */
export function utcDayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** The next UTC midnight after `time`: when its day's budget resets. */
export function nextUtcMidnight(time: number): Date {
  const date = new Date(time)
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1))
}

export function createBudget({ store, limitFor, now = Date.now }: BudgetOptions): Budget {
  return {
    *check(clientId) {
      const limit = limitFor(clientId)
      if (limit === undefined) return
      const time = now()
      let used: number
      try {
        used = yield* store.used(clientId, utcDayOf(time))
      } catch (error) {
        if (isBudgetStoreUnavailable(error)) throw new ChatRequestError('store_unavailable', 'Model budgets cannot be reached right now. Try again in a moment.')
        throw error
      }
      if (used >= limit) throw new BudgetExhaustedError(limit, nextUtcMidnight(time), time)
    },
    *spend(clientId, tokens) {
      if (!(tokens > 0)) return
      try {
        yield* store.add(clientId, utcDayOf(now()), Math.ceil(tokens))
      } catch (error) {
        // The tokens are lost to the count: an error. The store's unavailable message is ours and names
        // no account, only where the store is; any other error's message only with LOG_CONTENT=1.
        logFailure('budget_count_failed', 'a model call’s tokens were not counted', error, { detail: isBudgetStoreUnavailable(error) ? (error as Error).message : undefined })
      }
    },
    *usage() {
      const time = now()
      const day = utcDayOf(time)
      const accounts = (yield* store.usage(day)).map(({ clientId, tokens }) => ({ clientId, tokens, limit: limitFor(clientId) ?? null }))
      return { day, resetsAt: nextUtcMidnight(time).toISOString(), accounts }
    },
  }
}
