import type { AdminErrorCode } from '../protocol/error-codes'
import { hasMark, Refusal } from '../http'

/** Marks every `AdminError`, whichever copy of this module made it (`hasMark`). */
const ADMIN_ERROR = Symbol.for('chat-app.AdminError')

/** A request to an admin route refused (`ADMIN_ERROR_CODES`; docs/http-contract.md, "Admin refusals"). */
export class AdminError extends Refusal<AdminErrorCode> {
  override name = 'AdminError'
  readonly [ADMIN_ERROR] = true
  constructor(code: AdminErrorCode, message: string) {
    super(code, message)
  }
}

export function isAdminError(error: unknown): error is AdminError {
  return hasMark(error, ADMIN_ERROR)
}
