/**
 * Model budgets (docs/deploying.md): the tokens the model reports for each account's turns and
 * `ctx.sample` calls, counted per UTC day in a store every instance shares; a new message is
 * refused (429 `budget_exhausted`) once the account's daily limit is spent. Below the engine,
 * which checks and counts; above `lib/http`, whose refusal it is. Which limit applies to an
 * account is injected (`LimitFor`); the app's instance is `lib/server/budget-instance.ts`.
 */
export { createBudget, nextUtcMidnight, utcDayOf } from './budget'
export type { AccountUsage, Budget, BudgetOptions, LimitFor } from './budget'
export { BudgetExhaustedError, describeWait } from './budget-exhausted'
export { BudgetStoreUnavailableError, isBudgetStoreUnavailable } from './budget-store'
export type { BudgetStore, DayUsage } from './budget-store'
export { adminTokenCheck } from './admin-token'
export { handleUsageRequest } from './handle-usage-request'
export type { UsageApp } from './handle-usage-request'
export { UsageError, isUsageError, USAGE_ERROR_CODES } from './errors'
export type { UsageErrorCode } from './errors'
export { createMemoryBudgetStore } from './stores/memory-store'
export { useEmbeddedBudgetStore, BUDGETS_DATABASE_FILE } from './stores/embedded-store'
export { useRedisBudgetStore } from './stores/redis-store'
