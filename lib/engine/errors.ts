import { CHAT_ERROR_STATUS, type ChatErrorCode } from '../protocol/error-codes'
import type { ValidationIssue } from '../protocol/events'

/** A request the chat refuses before streaming; it knows its HTTP status. */
export class ChatRequestError extends Error {
  override name = 'ChatRequestError'
  readonly status: number
  constructor(
    readonly code: ChatErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
  ) {
    super(message)
    this.status = CHAT_ERROR_STATUS[code]
  }

  toResponse(headers?: HeadersInit): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } }
    return Response.json(body, { status: this.status, headers })
  }
}

export function isChatRequestError(error: unknown): error is ChatRequestError {
  return error instanceof ChatRequestError
}
