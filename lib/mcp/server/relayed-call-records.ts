import type { Operation } from 'effection'
import { SESSION_RECORD_FORMAT, type SessionRecord, type SessionStore, type StoredSession } from '../../sessions'
import type { RelayedCall, RequestId } from './relayed-call'

/**
 * Calls are kept under this reserved client id (no browser identity has a space), the call as
 * the record's `params`; `status` is `waiting` while its questions wait, `running` once the last
 * answer came and an instance runs the next round (under a lease: `runningUntil`), `completed`
 * once its result is in its log.
 */
const CALLS = 'mcp calls'

/**
 * A call's id under the session and the JSON-RPC id of its `tools/call` (reserved client id; the
 * record's `params` is the call's id), for `notifications/cancelled`, which names only the latter.
 */
const CALL_IDS = 'mcp call ids'
const requestKey = (sessionId: string, requestId: RequestId) => `${sessionId} ${JSON.stringify(requestId)}`

export type RelayedCallStatus = 'waiting' | 'running' | 'completed'

/** How a relayed call is kept in the session store: its record, and the index from its `tools/call`'s id to it. */
export class RelayedCallRecords {
  constructor(
    private readonly store: SessionStore,
    /** How long a call is kept: as long as its round's state is valid. */
    private readonly keepMs: number,
  ) {}

  /** The call's record and its version; undefined once forgotten. */
  get(callId: string): Operation<StoredSession | undefined> {
    return this.store.get(CALLS, callId)
  }

  /** Records that the `tools/call` `requestId` of the session is the call `callId` (for its cancellation). */
  *index(sessionId: string, requestId: RequestId, callId: string, call: RelayedCall): Operation<void> {
    yield* this.store.create({ ...this.recordOf(callId, call, 'completed'), clientId: CALL_IDS, id: requestKey(sessionId, requestId), params: callId })
  }

  /** The call the session's `tools/call` `requestId` started; undefined when it started none the relay served. */
  *callIdOf(sessionId: string, requestId: RequestId): Operation<string | undefined> {
    const index = yield* this.store.get(CALL_IDS, requestKey(sessionId, requestId))
    return index?.record.params as string | undefined
  }

  /** Replaces the version named (compare-and-set): the version written, undefined when another write came first. */
  update(record: SessionRecord, version: number): Operation<number | undefined> {
    return this.store.update(record, version)
  }

  /** Creates the call's record (`version` undefined) or replaces the version named; whether it was written. */
  *write(record: SessionRecord, version: number | undefined): Operation<boolean> {
    if (version === undefined) return (yield* this.store.create(record)) !== undefined
    return (yield* this.store.update(record, version)) !== undefined
  }

  /** The record of the call in `status`, kept `keepMs` from now. */
  recordOf(callId: string, call: RelayedCall, status: RelayedCallStatus, createdAt = Date.now()): SessionRecord {
    const now = Date.now()
    return {
      format: SESSION_RECORD_FORMAT,
      id: callId,
      clientId: CALLS,
      toolName: call.toolName,
      params: call,
      status,
      journal: [],
      createdAt,
      updatedAt: now,
      expiresAt: now + this.keepMs,
      keepUntil: now + this.keepMs,
    }
  }
}
