import { hasMark, Refusal } from '../../../http'

/** The codes the routes that connect a person to a server of `mcp.json` refuse with (their statuses: the app's one table, `ERROR_STATUS`). */
export type AccessRefusalCode =
  | 'unknown_server'
  | 'not_personal'
  | 'foreign_resource_metadata'
  | 'authorization_failed'
  | 'unknown_authorization'
  | 'not_your_authorization'
  | 'invalid_variables'
  | 'forbidden_origin'
  | 'store_unavailable'

const ACCESS_REFUSAL = Symbol.for('chat-app.McpAccessRefusal')

/** A refusal of the connect, callback, disconnect and variables routes: `{ error: { code, message } }` with its status. */
export class McpAccessRefusal extends Refusal<AccessRefusalCode> {
  override name = 'McpAccessRefusal'
  readonly [ACCESS_REFUSAL] = true
  constructor(code: AccessRefusalCode, message: string) {
    super(code, message)
  }
}

export function isMcpAccessRefusal(error: unknown): error is McpAccessRefusal {
  return hasMark(error, ACCESS_REFUSAL)
}
