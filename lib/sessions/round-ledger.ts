import type { Operation, Scope } from 'effection'
import { DEFAULT_LEASE_MS, Lease, leaseLapsed } from './lease'
import type { ReportFailure } from './report-failure'
import { keptRecord, type SessionRecord } from './session-record'
import type { SessionStore } from './session-store'

/** The client id under which rounds are kept: no browser identity is ever this (the name is the MCP server's, whose stateless rounds use the ledger). */
const ROUNDS = 'mcp-rounds'

/** What the ledger knows of a round continuing from a state. */
export type RoundClaim =
  | { kind: 'claimed'; version: number }
  | { kind: 'answered'; result: unknown }
  /** Its round runs, its runner presumed alive until `runningUntil` (undefined: a claim of before leases, never taken over). */
  | { kind: 'running'; runningUntil: number | undefined }

/** A claim a round holds while it runs (`RoundLedger.hold`). */
export interface HeldClaim {
  /** Renews the claim's lease until the round's last write: run it beside the round, halted once the round ends. */
  keep(): Operation<void>
  /** Keeps the round's answer for the state presented again. */
  answer(result: unknown): Promise<void>
  /** Frees the state: nobody got the round's answer, and the client may present it again. */
  release(): Promise<void>
}

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
 * A claim is a lease (lease.ts; `hold`): its runner renews it while the round runs, and once it
 * has passed — the runner died in the middle of the round — the next presentation of the state
 * takes the claim over (a compare-and-set on its version, which only one can win) and runs the
 * round again from the sealed state. A round that recorded its answer is never run again.
 */
export class RoundLedger {
  constructor(
    private readonly store: SessionStore,
    private readonly keepMs: number,
    /** Told of a claim's renewal the store did not answer. */
    private readonly report: ReportFailure,
    readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {}

  /**
   * The claim `claimed` of state `stateId` held by its round: `keep` renews it beside the round
   * (renewals run in `scope`), `answer` keeps the round's answer and `release` frees the state
   * (each the last write under the lease, on the version the lease wrote last).
   */
  hold({ stateId, toolName, version, scope }: { stateId: string; toolName: string; version: number; scope: Scope }): HeldClaim {
    const lease = new Lease({ scope, leaseMs: this.leaseMs, version, renew: (runningUntil, at) => this.renew({ stateId, toolName, version: at, runningUntil }), report: this.report })
    return {
      keep: () => lease.keep(),
      answer: (result) => lease.end((at) => this.answer({ stateId, toolName, version: at, result })),
      release: () => lease.end(() => this.release(stateId)),
    }
  }

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
    const ending = { kind: 'completed', content: JSON.stringify(result) } as const
    yield* this.store.update(keptRecord({ clientId: ROUNDS, id: stateId, toolName, params: null, status: 'completed', ending, now, keepUntil: now + this.keepMs }), version)
  }

  /** A round that failed leaves its state free to be tried again. */
  *release(stateId: string): Operation<void> {
    yield* this.store.delete(ROUNDS, stateId)
  }

  private claimOf({ stateId, toolName, runningUntil }: { stateId: string; toolName: string; runningUntil: number }): SessionRecord {
    const now = Date.now()
    const params: ClaimParams = { runningUntil }
    return keptRecord({ clientId: ROUNDS, id: stateId, toolName, params, status: 'running', now, keepUntil: now + this.keepMs })
  }
}
