import { hasMark, Refusal } from '../../http'

/** Marks every `McpAppError`, whichever bundle's copy of this module made it (see http/errors.ts). */
const MCP_APP_ERROR = Symbol.for('chat-app.McpAppError')

/** The codes the MCP Apps routes refuse with (their statuses: the app's one table, `ERROR_STATUS`). */
export type McpAppErrorCode =
  | 'invalid_request'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'invalid_json'
  | 'unknown_frame'
  | 'unknown_server'
  | 'no_app'
  | 'unknown_question'
  | 'tool_not_allowed'
  | 'not_connected'
  | 'approval_required'
  | 'forbidden_origin'
  | 'invalid_app_resource'
  | 'app_resource_too_large'
  | 'server_unavailable'
  | 'not_configured'

/** A refusal of an MCP Apps route, or a fault of the app's server: the app's one refusal shape, never cached. */
export class McpAppError extends Refusal<McpAppErrorCode> {
  override name = 'McpAppError'
  readonly [MCP_APP_ERROR] = true
  constructor(
    code: McpAppErrorCode,
    message: string,
    /** More for the chat page, beside `code` and `message` in the error body (what an approval is asked for). */
    readonly data?: Record<string, unknown>,
  ) {
    super(code, message)
  }

  override toResponse(headers?: Record<string, string>): Response {
    return super.toResponse({ 'Cache-Control': 'no-store', ...headers })
  }

  protected override details(): Record<string, unknown> {
    const { code: _code, message: _message, ...data } = this.data ?? {}
    return data
  }
}

export function isMcpAppError(error: unknown): error is McpAppError {
  return hasMark(error, MCP_APP_ERROR)
}
