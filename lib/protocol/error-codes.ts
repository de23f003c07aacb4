/** The error codes `POST /api/chat` refuses a request with, before streaming, and the HTTP status of each. */
export const CHAT_ERROR_STATUS = {
  unsupported_media_type: 415,
  body_too_large: 413,
  invalid_json: 400,
  invalid_request: 400,
  invalid_conversation: 400,
  unknown_tool_call: 400,
  /** A slash command names a tool the chat does not have. */
  unknown_tool: 400,
  /** A slash command names a tool its MCP server keeps for its app (`_meta.ui.visibility` without "model"). */
  app_only_tool: 400,
  duplicate_response: 400,
  /** An assistant or tool message the server did not produce, or changed since. */
  tampered_message: 400,
  elicit_already_answered: 409,
  elicit_mismatch: 409,
  session_not_waiting: 409,
  /** Too many requests from this address, or from everyone: try again after `Retry-After`. */
  rate_limited: 429,
  /** This account has used today's model budget: a new message waits for `resetsAt` (next UTC midnight, also `Retry-After`). */
  budget_exhausted: 429,
  store_unavailable: 503,
  /** Sign-in is configured and the request has no valid session: every API's answer to an unsigned request. */
  sign_in_required: 401,
  /** `chatId` names no chat of this identity: unknown, deleted, or another identity's (never 403). */
  chat_not_found: 404,
  /** The chat named by `chatId` is at its limit of events or bytes; as an `error` event when reached mid-turn. */
  chat_too_large: 413,
} as const

export type ChatErrorCode = keyof typeof CHAT_ERROR_STATUS
