import { isJSONRPCResponse } from '@modelcontextprotocol/server'
import type { Work } from '../../http/admission'
import type { RoundStateCodec } from './round-state'

type RequestId = string | number

/** Tells an MCP request that continues a call in progress from new work (admission, in the endpoint). */
export interface McpWorkInProgress {
  workOf(request: {
    /** The HTTP method. */
    method: string
    /** `Mcp-Session-Id`, when sent. */
    sessionId: string | null
    /** The JSON-RPC message of a POST, parsed; undefined when there is none or it is not JSON. */
    body: unknown
    /** Whom the bearer token names ('' without one): a round's state is sealed for it. */
    caller: string
  }): Work
}

/** Rounds' states remembered as given priority, per instance; the oldest forgotten first. */
const MAX_STATES = 100_000

/**
 * What continues a call, recognised from what MCP already carries, without the SDK:
 *
 * - 2025-11-25 sessions: a POST whose message is the response to a request this server sent
 *   in that live session (an elicitation's answer, a sampling result) and not answered yet;
 *   `notifications/cancelled` in a live session (MCP's Stop); a GET (the session's stream, or
 *   its resumption with `Last-Event-ID`) or a DELETE of a live session. A session id is an
 *   unguessable UUID, known only to the client it was given to.
 * - 2026-07-28 rounds: a `tools/call` carrying a `requestState` that opens under the server's
 *   seal for this caller (AES-GCM, round-state.ts) and was not given priority before here.
 *
 * Invariant: anything else — `initialize`, a new `tools/call`, a made-up or expired state, a
 * response to nothing asked, the same state or answer sent twice — is new work.
 */
export function createMcpWorkInProgress({
  codec,
  askedIn,
}: {
  codec: RoundStateCodec
  /** The ids of requests the server sent and still waits on in a live 2025 session; undefined when no such session is here. */
  askedIn(sessionId: string): Set<RequestId> | undefined
}): McpWorkInProgress {
  const granted = new Set<string>()
  return {
    workOf({ method, sessionId, body, caller }) {
      const asked = sessionId ? askedIn(sessionId) : undefined
      if (asked && method !== 'POST') return 'continue'
      // One message per request: a batch (an array) is refused before admission, and would be new work here.
      if (method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return 'new'
      if (asked) {
        if (isJSONRPCResponse(body) && body.id !== null && body.id !== undefined && asked.delete(body.id)) return 'continue'
        if ((body as { method?: unknown }).method === 'notifications/cancelled') return 'continue'
      }
      const { method: rpcMethod, params } = body as { method?: unknown; params?: { requestState?: unknown } }
      const wire = rpcMethod === 'tools/call' ? params?.requestState : undefined
      if (typeof wire !== 'string') return 'new'
      const state = codec.open(wire, roundBinding('tools/call', caller))
      if (!state || granted.has(state.id)) return 'new'
      if (granted.size >= MAX_STATES) granted.delete(granted.values().next().value!)
      granted.add(state.id)
      return 'continue'
    },
  }
}

/** What a round's state is sealed for: the method and the caller (the bearer token's principal, or ''). */
export function roundBinding(method: string, caller: string): string {
  return `${method}\0${caller}`
}
