/** Marks every `McpAppError`, whichever bundle's copy of this module made it (see http/errors.ts). */
const MCP_APP_ERROR = Symbol.for('chat-app.McpAppError')

export const MCP_APP_ERROR_STATUS = {
  invalid_request: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  invalid_json: 400,
  /** Missing, forged, expired, or another browser's ticket: as if the frame did not exist. */
  unknown_frame: 404,
  unknown_server: 404,
  /** The tool has no app, or the app may not call that tool. */
  no_app: 404,
  /** No question of this browser waits for an answer in an app there. */
  unknown_question: 404,
  tool_not_allowed: 403,
  /** The app's server asks each person to connect, and this person has not (or their token was refused). */
  not_connected: 403,
  /** The app's tool call waits for the person's approval, as the model's would: ask, then send it again, approved. */
  approval_required: 428,
  forbidden_origin: 403,
  /** The server answered, but not with an MCP App we can show. */
  invalid_app_resource: 502,
  app_resource_too_large: 502,
  /** The server is down, starting, or did not answer in time. */
  server_unavailable: 503,
  not_configured: 503,
} as const

export type McpAppErrorCode = keyof typeof MCP_APP_ERROR_STATUS

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
    this.status = MCP_APP_ERROR_STATUS[code]
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
