import { CHAT_ERROR_STATUS, type ChatErrorCode } from '../protocol/error-codes'
import type { ValidationIssue } from '../protocol/events'
import { isSessionStoreUnavailable } from '../sessions/session-store'

/**
 * Marks every `ChatRequestError`, whichever copy of this module made it: the production server
 * opens the chat server from `instrumentation` and runs the routes from another bundle, each
 * with its own copy of this class, so `instanceof` alone misses errors made by the other one.
 */
const CHAT_REQUEST_ERROR = Symbol.for('chat-app.ChatRequestError')

/** A request the chat refuses before streaming; it knows its HTTP status. */
export class ChatRequestError extends Error {
  override name = 'ChatRequestError'
  readonly [CHAT_REQUEST_ERROR] = true
  readonly status: number
  constructor(
    readonly code: ChatErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
    /** For a 429: when to try again, sent as `Retry-After` (whole seconds, at least 1). */
    readonly retryAfterSeconds?: number,
    /** For a 429: whose limit it was — the client's own address, or the whole server's. */
    readonly scope?: 'address' | 'server',
  ) {
    super(message)
    this.status = CHAT_ERROR_STATUS[code]
  }

  toResponse(headers?: Record<string, string>): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}), ...(this.scope ? { scope: this.scope } : {}) } }
    const all: Record<string, string> = { ...headers }
    if (this.retryAfterSeconds !== undefined) all['Retry-After'] = String(Math.max(1, Math.ceil(this.retryAfterSeconds)))
    return Response.json(body, { status: this.status, headers: all })
  }
}

export function isChatRequestError(error: unknown): error is ChatRequestError {
  return error instanceof ChatRequestError || (typeof error === 'object' && error !== null && CHAT_REQUEST_ERROR in error)
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
  if (isSessionStoreUnavailable(error)) {
    return new ChatRequestError('store_unavailable', `Sessions cannot be reached right now (${error.message}). Try again in a moment.`)
  }
  return undefined
}
