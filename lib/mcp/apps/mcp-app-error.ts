import { ERROR_STATUS, type ErrorCode } from '../../protocol/error-codes'
/** Marks every `McpAppError`, whichever bundle's copy of this module made it (see http/errors.ts). */
const MCP_APP_ERROR = Symbol.for('chat-app.McpAppError')

/** The codes the MCP Apps routes refuse with, or fail with when the app's server does (their statuses: lib/protocol/error-codes.ts). */
export const MCP_APP_ERROR_CODES = [
  'invalid_request',
  'unsupported_media_type',
  'body_too_large',
  'invalid_json',
  'unknown_frame',
  'unknown_server',
  'no_app',
  'unknown_question',
  'tool_not_allowed',
  'approval_required',
  'forbidden_origin',
  'invalid_app_resource',
  'app_resource_too_large',
  'server_unavailable',
  'not_configured',
] as const satisfies readonly ErrorCode[]

export type McpAppErrorCode = (typeof MCP_APP_ERROR_CODES)[number]

/** A refusal of an MCP Apps route, or a fault of the app's server; it knows its HTTP status. */
export class McpAppError extends Error {
  override name = 'McpAppError'
  readonly [MCP_APP_ERROR] = true
  readonly status: number
  constructor(
    readonly code: McpAppErrorCode,
    message: string,
    /** More for the chat page, beside `code` and `message` in the error body (what an approval is asked for). */
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }

  toResponse(headers?: Record<string, string>): Response {
    return Response.json(
      { error: { ...this.data, code: this.code, message: this.message } },
      { status: this.status, headers: { 'Cache-Control': 'no-store', ...headers } },
    )
  }
}

export function isMcpAppError(error: unknown): error is McpAppError {
  return error instanceof McpAppError || (typeof error === 'object' && error !== null && MCP_APP_ERROR in error)
}
