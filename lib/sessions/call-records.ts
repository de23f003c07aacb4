import type { Operation, Scope } from 'effection'
import { DEFAULT_LEASE_MS, Lease } from './lease'
import type { ReportFailure } from './report-failure'
import { keptRecord, type SessionRecord } from './session-record'
import type { SessionStore } from './session-store'

/**
 * Calls are kept under this reserved client id (no browser identity has a space), the call as
 * the record's `params`; `status` is `waiting` while its questions wait, `running` once the last
 * answer came and an instance runs the next round (under a lease: `runningUntil`, beside the call
 * in `params`), `completed` once it has ended. (The names are the MCP server's, whose 2025 calls
 * are the ones kept this way: records written under them stay readable.)
 */
const CALLS = 'mcp calls'

/** An index from the adapter's key of a call (an MCP session's `tools/call` id) to the call's id; the record's `params` is the call's id. */
const CALL_IDS = 'mcp call ids'

export type KeptCallStatus = 'waiting' | 'running' | 'completed'

/** A call as kept between its rounds, with the version a compare-and-set must name to change it. */
export interface KeptCall<Call> {
  callId: string
  /** The call as the adapter wrote it (JSON). */
  call: Call
  status: KeptCallStatus
  /** While a round of it runs (`running`): until when its runner is presumed alive. */
  runningUntil?: number
  createdAt: number
  version: number
}

/**
 * Tool calls run in rounds (an MCP 2025 call relayed as data: call-relay.ts in lib/mcp/server),
 * kept in the session store between their rounds, so that a call in progress belongs to no
 * process: any instance records its answers, runs its next round, or takes over a round whose
 * runner died.
 *
 * Invariants: every change of a call is a compare-and-set on the version read (`update`, `run`)
 * or written last (the round's own writes, through its `Lease`), so of several answers
 * completing a round exactly one write wins, of several instances taking over a round whose lease
 * passed exactly one does, and a runner that lost its lease changes the call no more. A call is
 * kept `keepMs` from its last write.
 */
export class CallRecords<Call extends { toolName: string }> {
  constructor(
    private readonly store: SessionStore,
    private readonly options: {
      /** Where rounds' lease renewals run (see `Lease`). */
      scope: Scope
      /** How long a call is kept after its last write. */
      keepMs: number
      /** A running round's lease (default `DEFAULT_LEASE_MS`). */
      leaseMs?: number
      /** Told of a lease renewal the store did not answer. */
      report: ReportFailure
    },
  ) {}

  get leaseMs(): number {
    return this.options.leaseMs ?? DEFAULT_LEASE_MS
  }

  /** Until when something written now about a call (its record, its log) is kept. */
  keepUntil(now = Date.now()): number {
    return now + this.options.keepMs
  }

  /** The call and its version; undefined once forgotten. */
  *get(callId: string): Operation<KeptCall<Call> | undefined> {
    const stored = yield* this.store.get(CALLS, callId)
    if (!stored) return undefined
    const { record, version } = stored
    const { runningUntil, ...call } = record.params as Call & { runningUntil?: number }
    const status = record.status as KeptCallStatus
    return { callId, call: call as Call, status, ...(status === 'running' && runningUntil !== undefined ? { runningUntil } : {}), createdAt: record.createdAt, version }
  }

  /** Records that the adapter's `key` names the call `callId` (an MCP `tools/call` id, for its cancellation). */
  *index(key: string, callId: string, toolName: string): Operation<void> {
    const now = Date.now()
    yield* this.store.create({ ...this.recordOf(callId, { toolName }, 'completed', now, now), clientId: CALL_IDS, id: key, params: callId })
  }

  /** The call `key` names; undefined when it names none. */
  *callIdOf(key: string): Operation<string | undefined> {
    const index = yield* this.store.get(CALL_IDS, key)
    return index?.record.params as string | undefined
  }

  /** Keeps a new call (its first round wrote nothing yet); the `keepUntil` written, undefined when the id is taken. */
  *create(callId: string, call: Call, status: Exclude<KeptCallStatus, 'running'>): Operation<number | undefined> {
    const now = Date.now()
    const record = this.recordOf(callId, call, status, now, now)
    return (yield* this.store.create(record)) ? record.keepUntil : undefined
  }

  /** Replaces `kept` (compare-and-set on its version) with `call` in `status`; the `keepUntil` written, undefined when another write came first. */
  *update(kept: KeptCall<Call>, call: Call, status: Exclude<KeptCallStatus, 'running'>): Operation<number | undefined> {
    const record = this.recordOf(kept.callId, call, status, kept.createdAt, Date.now())
    return (yield* this.store.update(record, kept.version)) !== undefined ? record.keepUntil : undefined
  }

  /**
   * Marks `kept` running `call`'s next round under a lease from now (compare-and-set on its
   * version: of several answers completing a round, or several instances taking over a round
   * whose lease passed, one wins); the round, or undefined when another write came first.
   * `announce` is told of the lease before the record says `running` (the streams learn of a
   * round before it may run, and its runner die).
   */
  *run(kept: KeptCall<Call>, call: Call, announce?: (lease: { runningUntil: number; keepUntil: number }) => Operation<void>): Operation<RoundUnderLease<Call> | undefined> {
    const now = Date.now()
    const runningUntil = now + this.leaseMs
    const record = this.recordOf(kept.callId, call, 'running', kept.createdAt, now, runningUntil)
    if (announce) yield* announce({ runningUntil, keepUntil: record.keepUntil })
    const version = yield* this.store.update(record, kept.version)
    if (version === undefined) return undefined
    const lease = new Lease({
      scope: this.options.scope,
      leaseMs: this.leaseMs,
      version,
      renew: (until, at) => this.store.update(this.recordOf(kept.callId, call, 'running', kept.createdAt, Date.now(), until), at),
      report: this.options.report,
    })
    return new RoundUnderLease({ store: this.store, lease, write: (next, status) => this.recordOf(kept.callId, next, status, kept.createdAt, Date.now()) })
  }

  private recordOf(callId: string, call: { toolName: string }, status: KeptCallStatus, createdAt: number, now: number, runningUntil?: number): SessionRecord {
    const params = runningUntil !== undefined ? { ...call, runningUntil } : call
    return keptRecord({ clientId: CALLS, id: callId, toolName: call.toolName, params, status, now, createdAt, keepUntil: this.keepUntil(now) })
  }
}

/**
 * A round of a kept call running here under its lease (`CallRecords.run`): `keep` renews the
 * lease beside the round; `end` is the round's last write, on the version the lease wrote last.
 */
export class RoundUnderLease<Call> {
  constructor(
    private readonly options: {
      store: SessionStore
      lease: Lease
      /** The record of the call in `status`, written now. */
      write(call: Call, status: Exclude<KeptCallStatus, 'running'>): SessionRecord
    },
  ) {}

  /** Whether the round was taken over (or the call cancelled) while it ran here: its last write will be refused. */
  get lost(): boolean {
    return this.options.lease.lost
  }

  /** Renews the lease until the round's last write: run it beside the round (in a long-lived scope, halted once the round ends). */
  keep(): Operation<void> {
    return this.options.lease.keep()
  }

  /** The round's last write: the call in `status`, on the version the lease wrote last; the `keepUntil` written, undefined when the call moved on. */
  end(call: Call, status: Exclude<KeptCallStatus, 'running'>): Promise<number | undefined> {
    const { store, lease, write } = this.options
    return lease.end(function* (version) {
      const record = write(call, status)
      return (yield* store.update(record, version)) !== undefined ? record.keepUntil : undefined
    })
  }
}
