import { hasMark, Refusal } from '../../../http'

/** The refusals of the routes that connect a person to a server of `mcp.json`, and their statuses. */
export const ACCESS_REFUSAL_STATUS = {
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
  /** A connect, disconnect or variables request from another site than the chat's page. */
  forbidden_origin: 403,
  /** The credentials' store cannot be reached. */
  store_unavailable: 503,
} as const

export type AccessRefusalCode = keyof typeof ACCESS_REFUSAL_STATUS

const ACCESS_REFUSAL = Symbol.for('chat-app.McpAccessRefusal')

/** A refusal of the connect, callback, disconnect and variables routes: `{ error: { code, message } }` with its status. */
export class McpAccessRefusal extends Refusal<AccessRefusalCode> {
  override name = 'McpAccessRefusal'
  readonly [ACCESS_REFUSAL] = true
  constructor(code: AccessRefusalCode, message: string) {
    super(code, ACCESS_REFUSAL_STATUS[code], message)
  }
}

export function isMcpAccessRefusal(error: unknown): error is McpAccessRefusal {
  return hasMark(error, ACCESS_REFUSAL)
}
