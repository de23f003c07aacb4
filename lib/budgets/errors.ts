import { hasMark, Refusal } from '../http'

/** The codes `GET /api/admin/usage` refuses with: the admin routes' (their statuses: the app's one table, `ERROR_STATUS`). */
export const USAGE_ERROR_CODES = ['admin_only'] as const

export type UsageErrorCode = (typeof USAGE_ERROR_CODES)[number]

/** Marks every `UsageError`, whichever copy of this module made it (`hasMark`). */
const USAGE_ERROR = Symbol.for('chat-app.UsageError')

/** A refused request for the accounts' use. */
export class UsageError extends Refusal<UsageErrorCode> {
  override name = 'UsageError'
  readonly [USAGE_ERROR] = true
  constructor(code: UsageErrorCode, message: string) {
    super(code, message)
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return hasMark(error, USAGE_ERROR)
}
