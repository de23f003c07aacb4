import { withResolvers, type Operation } from 'effection'
import type { JournalEntry } from '../runtime/journal'
import { SessionConflictError, SessionLimitError } from './errors'
import type { SessionRecord } from './session-record'
import { SessionStoreUnavailableError, type SessionStore, type StoredSession } from './session-store'

/** How long things last, in ms, and the clock. */
export interface SessionTiming {
  now(): number
  /** A waiting session nobody answers ends after this long. */
  idleTimeoutMs: number
  /** A running session whose process stops writing is presumed dead after this long. */
  leaseMs: number
  /** How long an ended session's record is kept, so late requests learn how it ended. */
  keepMs: number
  /** This server instance's name, written in every record it writes (`SessionRecord.instance`). */
  instance?: string
}

/**
 * One session's record as this process holds it, and the only way it reaches the store.
 *
 * Invariant: every write is a compare-and-set on the version this process wrote last (the first
 * one a create, within the limits on open sessions), one at a time, so a process that lost the
 * session to another can never record anything more: its next write fails with
 * `SessionConflictError`. Results the tool received may be held back (`append`, `stage`: the
 * record is then ahead of the store, `unwritten`) to go out with the next write, never dropped.
 */
export class SessionWriter {
  private current: SessionRecord
  private writtenVersion: number
  /** The record holds what the store does not have yet: results (see `append`, `stage`), or the whole new session. */
  private unwrittenChanges: boolean
  /**
   * Set when no write of this session may be tried again, and every later one fails the same
   * way: the store refused to create it (a limit), or a write's outcome is unknown (the store
   * did not answer in time: it may hold that write or not, and a second try would be told the
   * session was taken by the first). The store's record is then the truth a replay starts from.
   */
  private refusal: SessionLimitError | SessionStoreUnavailableError | undefined = undefined
  // Writes happen one at a time: parallel branches may record results at once.
  private writing = false
  private readonly writers: Array<() => void> = []

  constructor(
    private readonly store: SessionStore,
    stored: StoredSession,
    private readonly timing: SessionTiming,
    /** For a new session (version 0): the limits on open sessions its creation must stay within. */
    private readonly limits?: { perClient?: number; all?: number },
  ) {
    this.current = stored.record
    this.writtenVersion = stored.version
    this.unwrittenChanges = stored.version === 0
  }

  get record(): SessionRecord {
    return this.current
  }

  /** The version of the record this process wrote last (0: not in the store yet). */
  get version(): number {
    return this.writtenVersion
  }

  /** The record as this process holds it, with the version it last wrote. */
  get stored(): StoredSession {
    return { record: this.current, version: this.writtenVersion }
  }

  /** Whether the record holds something the store does not have yet. */
  get unwritten(): boolean {
    return this.unwrittenChanges
  }

  /** Someone else wrote `taken` (the manager's compare-and-set on an answer): carry on from it. */
  adopt(taken: StoredSession): void {
    this.current = taken.record
    this.writtenVersion = taken.version
  }

  /** Hold `next` (the record with an answer in its journal) to be written with the next write, on the version written last. */
  stage(next: SessionRecord): void {
    this.current = next
    this.unwrittenChanges = true
  }

  /** A sample's or a step's result, held to be written with the next write (under the write lock, so a write in flight does not drop it). */
  *append(entry: JournalEntry): Operation<void> {
    yield* this.lock()
    try {
      const now = this.timing.now()
      this.current = {
        ...this.current,
        journal: [...this.current.journal, entry],
        updatedAt: now,
        expiresAt: now + this.timing.leaseMs,
        keepUntil: now + this.timing.leaseMs + this.timing.keepMs,
      }
      this.unwrittenChanges = true
    } finally {
      this.unlock()
    }
  }

  /** Give up what is held back: a write failed, and nothing more is written from here. */
  forgetUnwritten(): void {
    this.unwrittenChanges = false
  }

  /** Write what is held back, if anything. */
  *writeUnwritten(): Operation<void> {
    yield* this.write((record) => record, { onlyUnwritten: true })
  }

  /**
   * Moves the lease of the session, running here, on (lease.ts: a running record's `expiresAt`,
   * `leaseMs` from now), when no more than two thirds of it are left and nothing held back is about
   * to be written anyway; a compare-and-set like every write (`SessionConflictError` when the store
   * moved on: taken over, or stopped). Whether the session still runs here: false once it waits,
   * has ended, or can write nothing more.
   */
  *renew(): Operation<boolean> {
    if (this.refusal || this.current.status !== 'running') return false
    const now = this.timing.now()
    const { leaseMs, keepMs } = this.timing
    if (this.writtenVersion === 0 || this.unwrittenChanges || this.current.expiresAt - now > (leaseMs * 2) / 3) return true
    yield* this.write((record) => (record.status === 'running' ? { ...record, expiresAt: now + leaseMs, keepUntil: now + leaseMs + keepMs } : undefined))
    return this.current.status === 'running'
  }

  /** Write `change` of the record (with whatever is held back), a compare-and-set; `SessionConflictError` when the store moved on. `change` returning undefined: nothing to write. */
  *write(change: (record: SessionRecord) => SessionRecord | undefined, { onlyUnwritten = false } = {}): Operation<void> {
    yield* this.lock()
    try {
      if (this.refusal) throw this.refusal
      if (onlyUnwritten && !this.unwrittenChanges) return
      const changed = change(this.current)
      if (changed === undefined) return
      const next = this.timing.instance ? { ...changed, instance: this.timing.instance } : changed
      // A new session is created by its first write: with its first question, when it asks at once.
      let version: number | undefined
      try {
        version = this.writtenVersion === 0 ? yield* this.create(next) : yield* this.store.update(next, this.writtenVersion)
      } catch (error) {
        if (error instanceof SessionStoreUnavailableError) this.refusal = error
        throw error
      }
      if (version === undefined) {
        throw new SessionConflictError(`The ${next.toolName} session was continued or stopped elsewhere.`)
      }
      this.current = next
      this.writtenVersion = version
      this.unwrittenChanges = false
    } finally {
      this.unlock()
    }
  }

  /** The new session's first write, within its limits; the version, or undefined when its key is taken. */
  private *create(record: SessionRecord): Operation<number | undefined> {
    try {
      return (yield* this.store.create(record, this.limits && { ...this.limits, now: this.timing.now() }))?.version
    } catch (error) {
      if (error instanceof SessionLimitError) this.refusal = error
      throw error
    }
  }

  private *lock(): Operation<void> {
    while (this.writing) {
      const turn = withResolvers<void>()
      this.writers.push(turn.resolve)
      yield* turn.operation
    }
    this.writing = true
  }

  private unlock(): void {
    this.writing = false
    this.writers.shift()?.()
  }
}
