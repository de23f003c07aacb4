import type { ValidationIssue } from './events'

const STATUS = {
  unsupported_media_type: 415,
  body_too_large: 413,
  invalid_json: 400,
  invalid_request: 400,
  invalid_conversation: 400,
  unknown_tool_call: 400,
  duplicate_response: 400,
  elicit_already_answered: 409,
  elicit_mismatch: 409,
  session_not_waiting: 409,
} as const

export type ChatErrorCode = keyof typeof STATUS

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
    this.status = STATUS[code]
  }

  toResponse(headers?: HeadersInit): Response {
    const body = { error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) } }
    return Response.json(body, { status: this.status, headers })
  }
}

export function isChatRequestError(error: unknown): error is ChatRequestError {
  return error instanceof ChatRequestError
}
