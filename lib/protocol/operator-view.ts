/**
 * What `GET /api/admin/operator` answers and the operator's page (`/admin`) shows: the tool calls
 * waiting for a person (every instance's, from the sessions' store), the external MCP servers,
 * the refusals of the last hour (this instance's), and each account's model use of today. An
 * account is never shown as it is: `account` is its id hashed (sha256, 16 hex digits), the same
 * in every list, so a row of one can be found in another.
 */
export interface OperatorView {
  /** The instance that answered (`INSTANCE_NAME`, else its host and port). */
  instance: string
  /** When it was read, ISO 8601. */
  at: string
  waiting: WaitingCallView[]
  servers: McpServerView[]
  refusals: { since: string; counts: RefusalCountView[] }
  usage: UsageView
}

export interface WaitingCallView {
  account: string
  callId: string
  tool: string
  /** The question's key in its tool (`pickFlight`). */
  question: string
  /** When it began to wait, and when its idle time-out ends it (ISO 8601). */
  since: string
  expiresAt: string
  /** The instance that wrote it; null when the record does not say (written before instances were named). */
  instance: string | null
  /** Its tool is held in memory: an answer resumes it without replaying its journal. */
  hot: boolean
}

export interface McpServerView {
  name: string
  /** `starting`, `ready`, `failed`, `restarting`, `disabled`, … as the chat's server list says it. */
  status: string
  error?: string
}

export interface RefusalCountView {
  code: string
  /** `address` or `server` for a 429 (`rate_limited`); empty otherwise. */
  scope: string
  count: number
}

export interface UsageView {
  /** Whether model use is counted at all (`MODEL_BUDGET_TOKENS_PER_DAY` set): without a budget nothing is. */
  counted: boolean
  /** The UTC day, and when it ends (null when nothing is counted). */
  day: string
  resetsAt: string | null
  accounts: Array<{ account: string; tokens: number; limit: number | null }>
}

/** `POST /api/admin/waiting-calls/end`'s body: the call, and whose (its `account` in the view). */
export interface EndWaitingCallRequest {
  account: string
  callId: string
}
