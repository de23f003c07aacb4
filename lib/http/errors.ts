import { ERROR_STATUS, type ChatErrorCode, type ErrorCode } from '../protocol/error-codes'
import type { ValidationIssue } from '../protocol/events'
import { isSessionStoreUnavailable } from '../sessions/session-store'
import { noteRefusal } from './request-telemetry'

/**
 * Whether `error` carries `mark` (a `Symbol.for` key its class sets), whichever copy of its
 * module made it: the production server opens the chat server from `instrumentation` and runs
 * the routes from another bundle, each with its own copy of a class, so `instanceof` alone
 * misses errors made by the other one.
 */
export function hasMark(error: unknown, mark: symbol): boolean {
  return typeof error === 'object' && error !== null && mark in error
}

/**
 * A request refused with a code and that code's HTTP status from the app's one table
 * (`ERROR_STATUS`, lib/protocol/error-codes.ts), answered in the JSON shape of every refusal of
 * this app: `{ error: { code, message, issues? } }`. Each API's subclass names the codes it
 * answers with, keeps its messages and its mark (`hasMark`).
 */
export class Refusal<Code extends ErrorCode = ErrorCode> extends Error {
  readonly status: number
  constructor(
    readonly code: Code,
    message: string,
    readonly issues?: ValidationIssue[],
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }

  toResponse(headers?: Record<string, string>): Response {
    const details = this.details()
    // The refusals' metric counts it, and the request's log line says the code (request-telemetry.ts: the mark is taken off before the head is written).
    const mark = noteRefusal(this.code, typeof details.scope === 'string' ? details.scope : undefined, this.message)
    const body = { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}), ...details } }
    return Response.json(body, { status: this.status, headers: { ...headers, ...mark } })
  }

  /** What else the JSON of this refusal says, after its code, message and issues. */
  protected details(): Record<string, unknown> {
    return {}
  }
}

/** Marks every `ChatRequestError`, whichever copy of this module made it (`hasMark`). */
const CHAT_REQUEST_ERROR = Symbol.for('chat-app.ChatRequestError')

/** A request the chat refuses before streaming; it knows its HTTP status. */
export class ChatRequestError extends Refusal<ChatErrorCode> {
  override name = 'ChatRequestError'
  readonly [CHAT_REQUEST_ERROR] = true
  constructor(
    code: ChatErrorCode,
    message: string,
    issues?: ValidationIssue[],
    /** For a 429: when to try again, sent as `Retry-After` (whole seconds, at least 1). */
    readonly retryAfterSeconds?: number,
    /** For a 429: whose limit it was — the client's own address, or the whole server's. */
    readonly scope?: 'address' | 'server',
  ) {
    super(code, message, issues)
  }

  override toResponse(headers?: Record<string, string>): Response {
    if (this.retryAfterSeconds === undefined) return super.toResponse(headers)
    return super.toResponse({ ...headers, 'Retry-After': String(Math.max(1, Math.ceil(this.retryAfterSeconds))) })
  }

  protected override details(): Record<string, unknown> {
    return this.scope ? { scope: this.scope } : {}
  }
}

export function isChatRequestError(error: unknown): error is ChatRequestError {
  return hasMark(error, CHAT_REQUEST_ERROR)
}

/**
 * The one place a failure the chat expects becomes what its client is told: a `ChatRequestError`,
 * a code and a message with its HTTP status. Before streaming it is the response
 * (`toResponse`); once a turn streams, its code and message are the `error` event's, and a tool
 * that could not start says its message. Anything else is a bug: undefined, and the caller lets
 * it be a 500 (or a `turn_failed` event).
 */
export function toChatFailure(error: unknown): ChatRequestError | undefined {
  if (isChatRequestError(error)) return error
  if (isSessionStoreUnavailable(error)) return storeUnavailable('Sessions')
  return undefined
}

/**
 * A store that cannot be reached, as its clients are told: what cannot be reached ("Sessions",
 * "Chats", "Devices") and when to try, never the store's own message — it names the store's host
 * and port, which are the operator's to know (each store logs its outage with them) and not a
 * browser's.
 */
function storeUnavailable(what: string): ChatRequestError {
  return new ChatRequestError('store_unavailable', `${what} cannot be reached right now. Try again in a moment.`)
}

/**
 * `toChatFailure` for an API of its own (chats, devices): its own refusals as they are, its
 * store down the same 503 `store_unavailable` as the sessions' store down (`what` names what
 * cannot be reached: "Chats", "Devices"), and anything else as `toChatFailure` has it.
 */
export function toApiFailure<Own extends Refusal>(
  error: unknown,
  { isOwn, isStoreUnavailable, what }: { isOwn(error: unknown): error is Own; isStoreUnavailable(error: unknown): error is Error; what: string },
): Own | ChatRequestError | undefined {
  if (isOwn(error)) return error
  if (isStoreUnavailable(error)) return storeUnavailable(what)
  return toChatFailure(error)
}
