/**
 * The one table from an error code to its HTTP status, for every refusal of this app: the chat,
 * the chats, the devices, the admin's usage and the MCP Apps routes. Each API names the codes it
 * may answer with (`CHAT_ERROR_CODES`, and its own list beside its error class); a code means the
 * same, with the same status, wherever it is used.
 */
export const ERROR_STATUS = {
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
  /** No such chat for this identity: unknown, malformed, deleted, or another identity's (never 403: that would say it exists). */
  chat_not_found: 404,
  /** The chat is at its limit of events or bytes (`CHAT_MAX_EVENTS`, `CHAT_MAX_BYTES`); as an `error` event when reached mid-turn. */
  chat_too_large: 413,
  /** An import that is not a chat export this server reads. */
  invalid_import: 400,
  /** The identity keeps as many chats as it may (`CHATS_MAX_PER_IDENTITY`). */
  too_many_chats: 429,
  /** A change asked for by another site's page (`Sec-Fetch-Site`), or a frame's request from another origin. */
  forbidden_origin: 403,
  /** No such device code: mistyped, already used, or never made. Said the same for each, so a code says nothing. */
  invalid_code: 400,
  /** The device code was right but made more than 10 minutes ago. */
  code_expired: 410,
  /** The identity has as many live device codes as it may (`MAX_LIVE_CODES`). */
  too_many_codes: 429,
  /** The identity has as many browsers as it may (`MAX_BROWSERS`). */
  too_many_browsers: 409,
  /** The browser is joined to that identity already. */
  already_joined: 409,
  /** No such browser of this identity (404 whether or not another identity has it). */
  browser_not_found: 404,
  /** This browser itself, or the identity's first browser: not revocable (docs/devices.md says why). */
  not_revocable: 409,
  /** No `Authorization: Bearer <ADMIN_TOKEN>`, a wrong one, or no `ADMIN_TOKEN` configured. */
  admin_only: 401,
  /** Missing, forged, expired, or another browser's MCP App ticket: as if the frame did not exist. */
  unknown_frame: 404,
  unknown_server: 404,
  /** The tool has no app, or the app may not call that tool. */
  no_app: 404,
  /** No question of this browser waits for an answer in an app there. */
  unknown_question: 404,
  tool_not_allowed: 403,
  /** The app's tool call waits for the person's approval, as the model's would: ask, then send it again, approved. */
  approval_required: 428,
  /** The server answered, but not with an MCP App we can show. */
  invalid_app_resource: 502,
  app_resource_too_large: 502,
  /** The MCP server is down, starting, or did not answer in time. */
  server_unavailable: 503,
  not_configured: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** The codes `POST /api/chat` refuses a request with, before streaming. */
export const CHAT_ERROR_CODES = [
  'unsupported_media_type',
  'body_too_large',
  'invalid_json',
  'invalid_request',
  'invalid_conversation',
  'unknown_tool_call',
  'unknown_tool',
  'app_only_tool',
  'duplicate_response',
  'tampered_message',
  'elicit_already_answered',
  'elicit_mismatch',
  'session_not_waiting',
  'rate_limited',
  'budget_exhausted',
  'store_unavailable',
  'sign_in_required',
  'chat_not_found',
  'chat_too_large',
] as const satisfies readonly ErrorCode[]

export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number]

/** The statuses of some codes, read from the one table (for an API's documentation and its tests). */
export function statusesOf<C extends ErrorCode>(codes: readonly C[]): { [K in C]: (typeof ERROR_STATUS)[K] } {
  return Object.fromEntries(codes.map((code) => [code, ERROR_STATUS[code]])) as { [K in C]: (typeof ERROR_STATUS)[K] }
}

/** The error codes `POST /api/chat` refuses a request with, and the HTTP status of each. */
export const CHAT_ERROR_STATUS = statusesOf(CHAT_ERROR_CODES)
