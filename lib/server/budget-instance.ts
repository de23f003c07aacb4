import type { Operation } from 'effection'
import { isAccountId } from '../auth'
import { readAuthConfig } from './auth-config'
import { getAdminAccess } from './admin-access'
import { createBudget, createMemoryBudgetStore, useEmbeddedBudgetStore, useRedisBudgetStore, type Budget, type BudgetStore, type LimitFor, type UsageApp } from '../budgets'
import { ConfigError, type Environment } from './config-error'
import { readServerConfig } from './config'
import { useChosenStore } from './chosen-store'
import { openForProcess } from './open-for-process'

/** The model budgets' configuration (README, "Configuration"). */
export interface BudgetConfig {
  /** `MODEL_BUDGET_TOKENS_PER_DAY`: an account's model tokens per UTC day at most (undefined: no budget). */
  tokensPerDay?: number
  /** `GUEST_MODEL_BUDGET_TOKENS_PER_DAY`: the same for a guest, once the app has sign-in. */
  guestTokensPerDay?: number
  /** `ADMIN_TOKEN`: the bearer token of `GET /api/admin/usage` (undefined: nobody is an admin). */
  adminToken?: string
}

/** The budgets' variables in `env`; a `ConfigError` naming the variable for a limit that is not a positive whole number. */
export function readBudgetConfig(env: Environment = process.env): BudgetConfig {
  const whole = (name: string) => {
    const text = env[name]?.trim()
    if (!text) return undefined
    const value = Number(text)
    if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive whole number of tokens (unset: no budget); got "${text}".`)
    return value
  }
  const adminToken = env.ADMIN_TOKEN?.trim() || undefined
  return { tokensPerDay: whole('MODEL_BUDGET_TOKENS_PER_DAY'), guestTokensPerDay: whole('GUEST_MODEL_BUDGET_TOKENS_PER_DAY'), adminToken }
}

/**
 * Which daily limit applies to an account: the one seam between the budgets and who the account
 * is. Every `clientId` gets `MODEL_BUDGET_TOKENS_PER_DAY`, except a guest's when sign-in lets
 * guests in (`guests`): an id that is not a signed-in account's (`isAccountId`) is a guest's and
 * gets `GUEST_MODEL_BUDGET_TOKENS_PER_DAY` — or, unset, the accounts' limit, so that letting
 * guests in never opens a way around the budget.
 */
export function limitsOf(config: BudgetConfig, { guests = false }: { guests?: boolean } = {}): LimitFor {
  const { tokensPerDay, guestTokensPerDay } = config
  if (!guests) return () => tokensPerDay
  const guestLimit = guestTokensPerDay ?? tokensPerDay
  return (clientId) => (isAccountId(clientId) ? tokensPerDay : guestLimit)
}

/** The app's model budgets (undefined when none is configured) and how to run their operations. */
export interface BudgetInstance {
  budget?: Budget
  run<T>(operation: () => Operation<T>): Promise<T>
}

const globalForBudgets = globalThis as typeof globalThis & { budgets?: Promise<BudgetInstance> }

/**
 * The app's one budget, where the sessions are: Redis with `REDIS_URL`, else
 * `DATA_DIR/budgets.db` (`SESSION_STORE=memory`: in memory). With no budget configured no store
 * is opened and the chat counts nothing. Kept on globalThis, like the chat app.
 */
export function getBudgets(): Promise<BudgetInstance> {
  globalForBudgets.budgets ??= open()
  return globalForBudgets.budgets
}

async function open(): Promise<BudgetInstance> {
  const budgetConfig = readBudgetConfig()
  if (budgetConfig.tokensPerDay === undefined && budgetConfig.guestTokensPerDay === undefined) {
    return { run: () => Promise.reject(new Error('No model budget is configured.')) }
  }
  const config = readServerConfig()
  const useStore = (): Operation<BudgetStore> =>
    useChosenStore(config, { redis: (url) => useRedisBudgetStore({ url }), memory: createMemoryBudgetStore, embedded: (directory) => useEmbeddedBudgetStore({ directory }) })
  const { value: store, run } = await openForProcess(useStore)
  return { budget: createBudget({ store, limitFor: limitsOf(budgetConfig, { guests: readAuthConfig(process.env)?.guests }) }), run }
}

/** What `GET /api/admin/usage` needs: the budgets and the admin check (`admin-access.ts`: `ADMIN_TOKEN` or its cookie, or an account `AUTH_ADMIN_*` names). */
export async function getUsageApp(): Promise<UsageApp> {
  const [{ budget, run }, access] = await Promise.all([getBudgets(), getAdminAccess()])
  return { budget, run, isAdmin: access.isAdmin }
}
