import type { Operation } from 'effection'
import { toApiFailure } from '../http'
import type { Budget } from './budget'
import { isBudgetStoreUnavailable } from './budget-store'
import { isUsageError, UsageError } from './errors'

/** What `GET /api/admin/usage` needs; `lib/server/budget-instance.ts` builds it. */
export interface UsageApp {
  /** The model budgets; undefined when none is configured (nothing is counted: the list is empty). */
  budget?: Budget
  /** Whether the request is an admin's: `Authorization: Bearer <ADMIN_TOKEN>`, or a signed-in admin (`AUTH_ADMIN_*`). */
  isAdmin(request: Request): boolean | Promise<boolean>
  /** Runs an operation of `budget` in the scope its store lives in. */
  run<T>(operation: () => Operation<T>): Promise<T>
}

/**
 * `GET /api/admin/usage`: each account's model tokens of today (UTC) with its daily limit, most
 * used first, for an admin only: `{ day, resetsAt, accounts: [{ clientId, tokens, limit }] }`.
 */
export async function handleUsageRequest({ app, request }: { app: UsageApp; request: Request }): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    if (!(await app.isAdmin(request))) throw new UsageError('admin_only', 'This is for admins: sign in as one, or send Authorization: Bearer <ADMIN_TOKEN>.')
    const { budget } = app
    const usage = budget ? await app.run(() => budget.usage()) : undefined
    return Response.json(usage ?? { day: new Date().toISOString().slice(0, 10), resetsAt: null, accounts: [] }, { headers })
  } catch (error) {
    const failure = toApiFailure(error, { isOwn: isUsageError, isStoreUnavailable: isBudgetStoreUnavailable, what: 'Model budgets' })
    if (failure) return failure.toResponse(headers)
    throw error
  }
}
