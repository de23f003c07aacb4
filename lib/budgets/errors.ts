import { hasMark, Refusal } from '../http'

/** The refusals of `GET /api/admin/usage` and the HTTP status of each (lib/http/errors.ts's JSON shape). */
export const USAGE_ERROR_STATUS = {
  /** No `Authorization: Bearer <ADMIN_TOKEN>`, a wrong one, or no `ADMIN_TOKEN` configured. */
  admin_only: 401,
} as const

export type UsageErrorCode = keyof typeof USAGE_ERROR_STATUS

/** Marks every `UsageError`, whichever copy of this module made it (`hasMark`). */
const USAGE_ERROR = Symbol.for('chat-app.UsageError')

/** A refused request for the accounts' use. */
export class UsageError extends Refusal<UsageErrorCode> {
  override name = 'UsageError'
  readonly [USAGE_ERROR] = true
  constructor(code: UsageErrorCode, message: string) {
    super(code, USAGE_ERROR_STATUS[code], message)
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return hasMark(error, USAGE_ERROR)
}
