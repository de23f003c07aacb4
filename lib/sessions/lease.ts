import { sleep, until, type Operation, type Scope } from 'effection'
import type { ReportFailure } from './report-failure'

/**
 * How long the runner of a piece of work kept as a record — a chat's tool session running, an
 * MCP call's round, the round ledger's claim of a state — is presumed alive after it last said so
 * (10 s). The trade-off: work cut by a crash is taken over this long after its runner last
 * renewed its lease (so a shorter lease resumes sooner), while a runner that cannot renew it for
 * two thirds of it — its event loop stalled, or the store out of its reach — is presumed dead
 * though it is not, and its work is run a second time elsewhere (its own writes are then refused:
 * it lost the compare-and-set); the clocks of the instances must also agree to well within it.
 * Work that runs longer than this (a slow model, a slow outside service) is not taken over: its
 * runner renews the lease every third of it (`RENEW_EVERY`) while it runs.
 *
 * Where a record keeps its lease: a chat session's, as its running record's `expiresAt` (moved by
 * each of its writes too, and renewed by `LiveSession.renewLease`); an MCP call's round and a
 * round ledger's claim, as `runningUntil` (renewed by `Lease`).
 */
export const DEFAULT_LEASE_MS = 10_000

/** A lease is renewed each time this share of it has passed. */
export const RENEW_EVERY = 1 / 3

/** When a lease ending at `until` has passed: its runner is presumed dead, and its record may be taken over. */
export function leaseLapsed(until: number | undefined, now = Date.now()): boolean {
  return until !== undefined && until <= now
}

/**
 * The lease of a record held while its work runs: written with compare-and-set, it says until
 * when the runner is presumed alive (`runningUntil`), and anyone may take the record over once
 * that has passed (`leaseLapsed`).
 *
 * While the work runs, `keep` moves the lease on every third of its length (`renew`, a
 * compare-and-set on the version written last). The last write goes through `end`, which waits
 * for a renewal in flight and writes on the version that renewal left, so that the runner never
 * loses its own record to its own renewal; after it, nothing is renewed. A renewal refused (the
 * record moved on: taken over, or cancelled) loses the lease: the runner's last write is then
 * refused too, so a runner presumed dead records nothing more.
 *
 * Renewals are written as tasks of the long-lived `scope`, so that halting `keep` (the work
 * ended) never leaves a write half known: its new version is always learnt.
 */
export class Lease {
  private version: number
  private inFlight: Promise<void> | undefined
  private over = false
  private refused = false

  constructor(
    private readonly options: {
      scope: Scope
      leaseMs: number
      /** The version the lease was taken at. */
      version: number
      /** Writes the record with its lease moved to `runningUntil`, on `version`; the new version, or undefined when the record moved on. */
      renew(runningUntil: number, version: number): Operation<number | undefined>
      /** Told of a renewal the store did not answer (`lease_renew_failed`). */
      report: ReportFailure
    },
  ) {
    this.version = options.version
  }

  /** Whether a renewal was refused: the record was taken over (or cancelled), and the runner's last write will be refused too. */
  get lost(): boolean {
    return this.refused
  }

  /** Renews the lease every third of its length until the last write, or until it is lost: run it beside the work. */
  *keep(): Operation<void> {
    while (!this.over) {
      yield* sleep(this.options.leaseMs * RENEW_EVERY)
      if (this.over) return
      yield* until(this.renew())
    }
  }

  /** The last write under the lease, on the version written last: what `write` returns. */
  async end<T>(write: (version: number) => Operation<T>): Promise<T> {
    this.over = true
    await this.inFlight
    return this.options.scope.run(() => write(this.version))
  }

  private renew(): Promise<void> {
    const { scope, leaseMs, renew, report } = this.options
    const written = scope.run(() => renew(Date.now() + leaseMs, this.version)).then(
      (version) => {
        if (version === undefined) {
          this.over = true
          this.refused = true
        } else this.version = version
      },
      (error: unknown) => {
        // The store did not answer: the lease is renewed at the next turn, if it still can be.
        report('lease_renew_failed', 'a lease could not be renewed', error)
      },
    )
    this.inFlight = written
    return written
  }
}
