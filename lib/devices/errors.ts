import { hasMark, Refusal } from '../http'

/**
 * The refusals of the devices API and the HTTP status of each, in the JSON shape of every
 * refusal of this app (lib/http/errors.ts): `{ error: { code, message, issues? } }`.
 */
export const DEVICE_ERROR_STATUS = {
  invalid_request: 400,
  /** No such code: mistyped, already used, or never made. Said the same for each, so a code says nothing. */
  invalid_code: 400,
  /** The code was right but made more than 10 minutes ago. */
  code_expired: 410,
  /** The identity has as many live codes as it may (`MAX_LIVE_CODES`). */
  too_many_codes: 429,
  /** The identity has as many browsers as it may (`MAX_BROWSERS`). */
  too_many_browsers: 409,
  /** The browser is joined to that identity already. */
  already_joined: 409,
  /** No such browser of this identity (404 whether or not another identity has it). */
  browser_not_found: 404,
  /** This browser itself, or the identity's first browser: not revocable (docs/devices.md says why). */
  not_revocable: 409,
  /** A change asked for by another site's page (`Sec-Fetch-Site`). */
  forbidden_origin: 403,
} as const

export type DeviceErrorCode = keyof typeof DEVICE_ERROR_STATUS

/** Marks every `DeviceError`, whichever copy of this module made it (`hasMark`). */
const DEVICE_ERROR = Symbol.for('chat-app.DeviceError')

/** A devices request that is refused; it knows its HTTP status. */
export class DeviceError extends Refusal<DeviceErrorCode> {
  override name = 'DeviceError'
  readonly [DEVICE_ERROR] = true
  constructor(code: DeviceErrorCode, message: string, issues?: Array<{ path: string; message: string }>) {
    super(code, DEVICE_ERROR_STATUS[code], message, issues)
  }
}

export function isDeviceError(error: unknown): error is DeviceError {
  return hasMark(error, DEVICE_ERROR)
}
