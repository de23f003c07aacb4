import type { Operation } from 'effection'
import { SESSION_RECORD_FORMAT, type SessionRecord, type SessionStore } from '../../sessions'
import { DEFAULT_ROUND_LEASE_MS, leaseLapsed } from './round-lease'

/** The client id under which rounds are kept: no browser identity is ever this. */
const ROUNDS = 'mcp-rounds'

/** What the ledger knows of a round continuing from a state. */
export type RoundClaim =
  | { kind: 'claimed'; version: number }
  | { kind: 'answered'; result: unknown }
  /** Its round runs, its runner presumed alive until `runningUntil` (undefined: a claim of before leases, never taken over). */
  | { kind: 'running'; runningUntil: number | undefined }

/** A claim's `params`: its lease. */
interface ClaimParams {
  runningUntil: number
}

/**
 * Each requestState is answered once. A round that continues from a state first claims it (a
 * create, which only one of several instances can win); when the round ends, its answer is kept
 * under the state's id until the state expires. The same state presented again gets the kept
 * answer — the same ticket, never a second booking — and one presented while its round still
 * runs is refused.
 *
 * A claim is a lease (round-lease.ts): its runner renews it while the round runs, and once it
 * has passed — the runner died in the middle of the round — the next presentation of the state
 * takes the claim over (a compare-and-set on its version, which only one can win) and runs the
 * round again from the sealed state. A round that recorded its answer is never run again.
 */
export class RoundLedger {
  constructor(
    private readonly store: SessionStore,
    private readonly keepMs: number,
    readonly leaseMs: number = DEFAULT_ROUND_LEASE_MS,
  ) {}

  *claim({ stateId, toolName }: { stateId: string; toolName: string }): Operation<RoundClaim> {
    for (let tries = 0; ; tries++) {
      const created = yield* this.store.create(this.claimOf({ stateId, toolName, runningUntil: Date.now() + this.leaseMs }))
      if (created) return { kind: 'claimed', version: created.version }
      const existing = yield* this.store.get(ROUNDS, stateId)
      // Released between the two: claim it again.
      if (!existing && tries < 3) continue
      if (existing?.record.ending?.kind === 'completed') return { kind: 'answered', result: JSON.parse(existing.record.ending.content) }
      const runningUntil = (existing?.record.params as ClaimParams | null | undefined)?.runningUntil
      if (existing && leaseLapsed(runningUntil)) {
        // Its runner is presumed dead: of several taking it over, one writes first.
        const taken = yield* this.store.update(this.claimOf({ stateId, toolName, runningUntil: Date.now() + this.leaseMs }), existing.version)
        if (taken !== undefined) return { kind: 'claimed', version: taken }
        continue
      }
      return { kind: 'running', runningUntil }
    }
  }

  /** Moves a claim's lease on (its runner is alive); the new version, or undefined when the claim was taken over or released. */
  *renew({ stateId, toolName, version, runningUntil }: { stateId: string; toolName: string; version: number; runningUntil: number }): Operation<number | undefined> {
    return yield* this.store.update(this.claimOf({ stateId, toolName, runningUntil }), version)
  }

  *answer({ stateId, toolName, version, result }: { stateId: string; toolName: string; version: number; result: unknown }): Operation<void> {
    const now = Date.now()
    yield* this.store.update(
      {
        format: SESSION_RECORD_FORMAT,
        id: stateId,
        clientId: ROUNDS,
        toolName,
        params: null,
        status: 'completed',
        journal: [],
        ending: { kind: 'completed', content: JSON.stringify(result) },
        createdAt: now,
        updatedAt: now,
        expiresAt: now + this.keepMs,
        keepUntil: now + this.keepMs,
      },
      version,
    )
  }

  /** A round that failed leaves its state free to be tried again. */
  *release(stateId: string): Operation<void> {
    yield* this.store.delete(ROUNDS, stateId)
  }

  private claimOf({ stateId, toolName, runningUntil }: { stateId: string; toolName: string; runningUntil: number }): SessionRecord {
    const now = Date.now()
    const params: ClaimParams = { runningUntil }
    return {
      format: SESSION_RECORD_FORMAT,
      id: stateId,
      clientId: ROUNDS,
      toolName,
      params,
      status: 'running',
      journal: [],
      createdAt: now,
      updatedAt: now,
      expiresAt: now + this.keepMs,
      keepUntil: now + this.keepMs,
    }
  }
}
