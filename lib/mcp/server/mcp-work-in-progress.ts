import { isJSONRPCResponse } from '@modelcontextprotocol/server'
import type { Work } from '../../http/admission'
import { parseCallEventId } from './call-log'
import type { RoundStateCodec } from './round-state'

type RequestId = string | number

/** Tells an MCP request that continues a call in progress from new work (admission, in the endpoint). */
export interface McpWorkInProgress {
  workOf(request: {
    /** The HTTP method. */
    method: string
    /** `Mcp-Session-Id`, when sent. */
    sessionId: string | null
    /** `Last-Event-ID`, when sent. */
    lastEventId?: string | null
    /** The JSON-RPC message of a POST, parsed; undefined when there is none or it is not JSON. */
    body: unknown
    /** Whom the bearer token names ('' without one): a round's state is sealed for it. */
    caller: string
  }): Work
}

/** Rounds' states and answers remembered as given priority, per instance; the oldest forgotten first. */
const MAX_STATES = 100_000

/**
 * What continues a call, recognised from what MCP already carries, without the SDK:
 *
 * - 2025-11-25 sessions: a POST whose message is the response to a request the relay sent in
 *   that session (an elicitation's answer, a sampling result: its id is signed for the session,
 *   call-relay.ts), the first time here; `notifications/cancelled` in a session held here (MCP's
 *   Stop); a GET resuming a relayed call's stream (`Last-Event-ID`); a GET or DELETE of a session
 *   held here. A session id is an unguessable UUID, known only to the client it was given to.
 * - 2026-07-28 rounds: a `tools/call` carrying a `requestState` that opens under the server's
 *   seal for this caller (AES-GCM, round-state.ts) and was not given priority before here.
 *
 * Invariant: anything else — `initialize`, a new `tools/call`, a made-up or expired state, a
 * response to nothing asked, the same state or answer sent twice — is new work.
 */
export function createMcpWorkInProgress({
  codec,
  heldHere,
  answersCall,
}: {
  codec: RoundStateCodec
  /** Whether this instance holds the live 2025 session `sessionId` (its SDK objects). */
  heldHere(sessionId: string): boolean
  /** Whether `id` is the signed id of a request the relay sent in session `sessionId` (call-relay.ts). */
  answersCall(id: RequestId, sessionId: string): boolean
}): McpWorkInProgress {
  const granted = new Set<string>()
  const grantOnce = (key: string) => {
    if (granted.has(key)) return false
    if (granted.size >= MAX_STATES) granted.delete(granted.values().next().value!)
    granted.add(key)
    return true
  }
  return {
    workOf({ method, sessionId, lastEventId, body, caller }) {
      const held = sessionId ? heldHere(sessionId) : false
      if (held && method !== 'POST') return 'continue'
      // The resumption of a relayed call's stream, on whichever instance it lands.
      if (sessionId && method === 'GET' && lastEventId && parseCallEventId(lastEventId)) return 'continue'
      // One message per request: a batch (an array) is refused before admission, and would be new work here.
      if (method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return 'new'
      if (sessionId) {
        if (isJSONRPCResponse(body) && body.id !== null && body.id !== undefined && answersCall(body.id, sessionId) && grantOnce(`answer ${String(body.id)}`)) return 'continue'
        if (held && (body as { method?: unknown }).method === 'notifications/cancelled') return 'continue'
      }
      const { method: rpcMethod, params } = body as { method?: unknown; params?: { requestState?: unknown } }
      const wire = rpcMethod === 'tools/call' ? params?.requestState : undefined
      if (typeof wire !== 'string') return 'new'
      const state = codec.open(wire, roundBinding('tools/call', caller))
      if (!state || !grantOnce(state.id)) return 'new'
      return 'continue'
    },
  }
}

/** What a round's state is sealed for: the method and the caller (the bearer token's principal, or ''). */
export function roundBinding(method: string, caller: string): string {
  return `${method}\0${caller}`
}
