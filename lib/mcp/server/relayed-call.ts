/** The JSON-RPC id of a request. */
export type RequestId = string | number

/** A 2025 tool call of a plugin tool, as data: what any instance needs to take it on (kept by `CallRecords`, lib/sessions/call-records.ts). */
export interface RelayedCall {
  sessionId: string
  /** The bearer token's principal the session belongs to ('' without a token): the round's state is sealed for it. */
  owner: string
  /** The JSON-RPC id of the `tools/call`: its result is sent under it. */
  requestId: RequestId
  progressToken?: string | number
  toolName: string
  args: unknown
  /** The round the call is in: the ids of its questions name it, so an answer to an earlier round is known as late. */
  round: number
  /** The sealed journal the round's answers continue (round-state.ts); absent before the first question. */
  requestState?: string
  /** The round's questions: input key → the method sent. */
  asked: Record<string, string>
  /** The answers so far: input key → the client's response (`result`, or `error`). */
  answers: Record<string, { result?: unknown; error?: { code: number; message: string } }>
}

/** The key under which the session's `tools/call` `requestId` names its relayed call (`CallRecords.index`), for `notifications/cancelled`, which names only the latter. */
export function requestKey(sessionId: string, requestId: RequestId): string {
  return `${sessionId} ${JSON.stringify(requestId)}`
}

/** A client's response to one of the relay's requests. */
export interface RelayAnswer {
  id: string
  result?: unknown
  error?: { code: number; message: string }
}

/** A `tools/call` the relay serves. */
export interface RelayedCallRequest {
  id: RequestId
  method: 'tools/call'
  params: { name: string; arguments?: unknown; _meta?: { progressToken?: string | number } }
}
