import { hasMark, Refusal } from '../http'

/**
 * The codes the devices API refuses with (their statuses: the app's one table, `ERROR_STATUS`),
 * in the JSON shape of every refusal of this app (lib/http/errors.ts): `{ error: { code, message, issues? } }`.
 */
export type DeviceErrorCode =
  | 'invalid_request'
  | 'invalid_code'
  | 'code_expired'
  | 'too_many_codes'
  | 'too_many_browsers'
  | 'already_joined'
  | 'browser_not_found'
  | 'not_revocable'
  | 'forbidden_origin'
  | 'sign_in_there'

/** Marks every `DeviceError`, whichever copy of this module made it (`hasMark`). */
const DEVICE_ERROR = Symbol.for('chat-app.DeviceError')

/** A devices request that is refused; it knows its HTTP status. */
export class DeviceError extends Refusal<DeviceErrorCode> {
  override name = 'DeviceError'
  readonly [DEVICE_ERROR] = true
  constructor(code: DeviceErrorCode, message: string, issues?: Array<{ path: string; message: string }>) {
    super(code, message, issues)
  }
}

export function isDeviceError(error: unknown): error is DeviceError {
  return hasMark(error, DEVICE_ERROR)
}
