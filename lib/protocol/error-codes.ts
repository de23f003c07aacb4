/**
 * Every code the app's HTTP APIs refuse a request with, and its HTTP status: one table, one
 * status per code whichever API answers it (a refusal is `{ error: { code, message, issues? } }`,
 * lib/http/errors.ts's `Refusal`). Each API names the codes it answers with where it refuses
 * (`ChatErrorCode` and `AdminErrorCode` here, documented in docs/http-contract.md; the chats',
 * the devices', the usage route's, MCP's in their layers); a code of no API is no code. The MCP
 * endpoint's JSON-RPC errors are MCP's, not these.
 */
export const ERROR_STATUS = {
  // The request itself.
  unsupported_media_type: 415,
  body_too_large: 413,
  invalid_json: 400,
  invalid_request: 400,
  /** No such route or resource (a route the deployment does not expose). */
  not_found: 404,
  /** A change asked for by another site's page (`Sec-Fetch-Site`, `Origin`). */
  forbidden_origin: 403,
  /** Too many requests from this address, or from everyone: try again after `Retry-After`. */
  rate_limited: 429,
  /** A store (sessions, chats, devices, credentials) cannot be reached. */
  store_unavailable: 503,
  /** Sign-in is configured and the request has no valid session: every API's answer to an unsigned request. */
  sign_in_required: 401,

  // POST /api/chat.
  invalid_conversation: 400,
  unknown_tool_call: 400,
  /** A slash command names a tool the chat does not have. */
  unknown_tool: 400,
  /** A slash command names a tool its MCP server keeps for its app (`_meta.ui.visibility` without "model"). */
  app_only_tool: 400,
  /** With sign-in, a slash command or an answer names a tool of an MCP server that is not this person's (mcp.json's `users`; stdio servers are for admins); an MCP App may not call that tool. */
  tool_not_allowed: 403,
  duplicate_response: 400,
  /** An assistant or tool message the server did not produce, or changed since. */
  tampered_message: 400,
  elicit_already_answered: 409,
  elicit_mismatch: 409,
  session_not_waiting: 409,
  /** This account has used today's model budget: a new message waits for `resetsAt` (next UTC midnight, also `Retry-After`). */
  budget_exhausted: 429,

  // The chats kept on the server (POST /api/chat's `chatId`, /api/chats).
  /** No such chat for this identity: unknown, malformed, deleted, or another identity's (never 403: that would say it exists). */
  chat_not_found: 404,
  /** The chat is at its limit of events or bytes (`CHAT_MAX_EVENTS`, `CHAT_MAX_BYTES`); as an `error` event when reached mid-turn. */
  chat_too_large: 413,
  /** `newChat` with a `chatId` this identity has a chat of already: a new chat needs a new id. */
  chat_exists: 409,
  /** `newChat`, and this identity keeps as many chats as it may (`CHATS_MAX_PER_IDENTITY`). */
  too_many_chats: 429,
  /** An import that is not a chat export this server reads. */
  invalid_import: 400,
  /** `GET /api/chats/:id/waiting`, and this identity follows as many chats' waiting calls on this instance as it may. */
  too_many_watches: 429,

  // Continue on another device (/api/devices).
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
  /** Sign-in is configured: a person's chats follow their account, so there is nothing to join; they sign in on the other device. */
  sign_in_there: 409,

  // The admin routes (/api/admin/*).
  /** Not an admin: no admin cookie or `Authorization: Bearer <ADMIN_TOKEN>`, and not signed in as an admin (`AUTH_ADMIN_*`). */
  admin_only: 401,
  /** The token given for the admin cookie is not `ADMIN_TOKEN`, or no `ADMIN_TOKEN` is configured. */
  wrong_admin_token: 401,
  /** The call named to be ended does not wait for an answer: answered, ended, expired, or never one. */
  call_not_waiting: 404,

  // A person's MCP servers (connect, OAuth callback, disconnect, variables).
  /** No server of that name in `mcp.json`. */
  unknown_server: 404,
  /** The server needs nobody to connect (no OAuth challenge, no user variables), or not that way. */
  not_personal: 400,
  /** The server's `WWW-Authenticate` names protected resource metadata on another origin (refused, as the spec's security section says). */
  foreign_resource_metadata: 502,
  /** The server's authorization server refused, could not be reached, or answered something unusable. */
  authorization_failed: 502,
  /** A callback whose `state` the app never gave, gave to another, or that was used or expired. */
  unknown_authorization: 400,
  /** The callback reached another person's browser than the one that pressed Connect. */
  not_your_authorization: 403,
  /** Values for an entry's `userVariables` that are missing, too long, or not text. */
  invalid_variables: 400,

  // MCP Apps (/api/mcp-apps/*).
  /** Missing, forged, expired, or another browser's ticket: as if the frame did not exist. */
  unknown_frame: 404,
  /** The tool has no app, or the app may not call that tool. */
  no_app: 404,
  /** No question of this browser waits for an answer in an app there. */
  unknown_question: 404,
  /** The app's tool call waits for the person's approval, as the model's would: ask, then send it again, approved. */
  approval_required: 428,
  /** The app's server asks each person to connect, and this person has not (or their token was refused). */
  not_connected: 403,
  /** The server answered, but not with an MCP App we can show. */
  invalid_app_resource: 502,
  app_resource_too_large: 502,
  /** The server is down, starting, or did not answer in time. */
  server_unavailable: 503,
  not_configured: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** The codes of `codes` with their statuses from the one table. */
export function statusesOf<Code extends ErrorCode>(codes: readonly Code[]): { readonly [C in Code]: (typeof ERROR_STATUS)[C] } {
  return Object.fromEntries(codes.map((code) => [code, ERROR_STATUS[code]])) as { readonly [C in Code]: (typeof ERROR_STATUS)[C] }
}

/** The codes `POST /api/chat` refuses a request with, before streaming (docs/http-contract.md, "Refusals"). */
export const CHAT_ERROR_CODES = [
  'unsupported_media_type',
  'body_too_large',
  'invalid_json',
  'invalid_request',
  'invalid_conversation',
  'unknown_tool_call',
  'unknown_tool',
  'app_only_tool',
  'tool_not_allowed',
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
  'chat_exists',
  'too_many_chats',
] as const satisfies readonly ErrorCode[]

export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number]

/** `POST /api/chat`'s codes and the HTTP status of each. */
export const CHAT_ERROR_STATUS = statusesOf(CHAT_ERROR_CODES)

/**
 * The codes the admin routes (`/api/admin/*`: the operator's view, ending a waiting call, the
 * admin cookie, each account's use) refuse a request with (docs/http-contract.md, "Admin refusals").
 */
export const ADMIN_ERROR_CODES = [
  'admin_only',
  'wrong_admin_token',
  'unsupported_media_type',
  'body_too_large',
  'invalid_json',
  'invalid_request',
  'call_not_waiting',
  'store_unavailable',
] as const satisfies readonly ErrorCode[]

export type AdminErrorCode = (typeof ADMIN_ERROR_CODES)[number]

/** The admin routes' codes and the HTTP status of each. */
export const ADMIN_ERROR_STATUS = statusesOf(ADMIN_ERROR_CODES)
