import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ensure, sleep, withResolvers, type Operation } from 'effection'
import Database from 'libsql'

export interface EmbeddedDatabaseOptions {
  /** `DATA_DIR`: created if needed. */
  directory: string
  /** The store's file in it (`sessions.db`, `conversations.db`, `devices.db`). */
  file: string
  /**
   * The store's schema, and what brings an earlier version's database to it: run at every open,
   * inside one `BEGIN IMMEDIATE` transaction, so it must not begin one of its own. No other
   * process prepares the same database meanwhile, and it sees the schema as the last one left it:
   * it creates what is missing (`if not exists`) and migrates only what it finds unmigrated.
   */
  prepare(db: Database.Database): void
  /**
   * What the start's failure says before its reason, naming what could not be kept where (e.g.
   * `The chats cannot be kept in <path>`); what to do about it follows.
   */
  failure: string
}

/** How long opening waits for another process's lock, at each step, before it fails. */
const LOCK_WAIT_MS = 5_000
/** The longest pause between two tries of the switch to the write-ahead log. */
const MAX_PAUSE_MS = 50

/**
 * A store's SQLite database (libsql, whose binary comes from the npm registry) in `DATA_DIR`, as
 * every embedded store opens it: shared by the processes of one machine, kept across restarts,
 * with no service to run. Write-ahead log with `synchronous = NORMAL`: a commit is in the log
 * (the OS's page cache) before it returns, so it survives `kill -9`; the log is synced at
 * checkpoints, so a power loss can lose the last moments of writes but not corrupt the database.
 *
 * Processes started at once on one `DATA_DIR` (a cluster, a deploy that starts the new process
 * before the old one has stopped) open each database together, and each gets it: every step of
 * the opening waits for another process's lock, up to 5 s at each, instead of failing. The busy
 * timeout is set first, so that every statement after it waits; the switch to the write-ahead
 * log, which SQLite refuses at once while another connection writes, is tried again until then
 * (`useWriteAheadLog`); `prepare` runs in a `BEGIN IMMEDIATE` transaction, one process after
 * another. Once open, a statement waits the same 5 s for another process's write lock.
 *
 * Called in the store's resource: the database closes when that scope ends. Fails at start, with
 * `failure` and the reason, when the directory cannot be created or written, or when another
 * process holds the database's lock for longer than that.
 */
export function* openEmbeddedDatabase({ directory, file, prepare, failure }: EmbeddedDatabaseOptions): Operation<Database.Database> {
  const path = join(directory, file)
  let db: Database.Database
  try {
    mkdirSync(directory, { recursive: true })
    db = new Database(path)
  } catch (error) {
    throw refusal(failure, path, error)
  }
  yield* ensure(() => {
    db.close()
  })
  try {
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
    yield* useWriteAheadLog(db)
    db.pragma('synchronous = NORMAL')
    db.transaction(prepare).immediate(db)
  } catch (error) {
    throw refusal(failure, path, error)
  }
  return db
}

/**
 * Wraps `fn` so that each call runs in one `BEGIN IMMEDIATE` transaction (it takes the write lock
 * first, so its reads and checks hold until it commits), rolled back when `fn` throws. As
 * libsql's `transaction(fn).immediate`, with `BEGIN`, `COMMIT` and `ROLLBACK` prepared once
 * instead of parsed at every call: a store that writes once per batch of a streaming turn runs
 * many of them.
 */
export function immediateTransaction<A extends unknown[], R>(db: Database.Database, fn: (...args: A) => R): (...args: A) => R {
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  return (...args) => {
    begin.run()
    let result: R
    try {
      result = fn(...args)
    } catch (error) {
      rollback.run()
      throw error
    }
    commit.run()
    return result
  }
}

/** Runs a write in the next group's transaction, once it has committed: its result, or what it threw. */
export type GroupedWrite = <R>(write: () => R) => Operation<R>

/**
 * Writes made in one turn of the event loop, committed together in one `BEGIN IMMEDIATE`
 * transaction at the start of the next, each in a savepoint of its own: what one throws is
 * undone alone (and thrown to its caller), the others commit. Each caller resumes once the
 * transaction holding its write has committed, so a write that returned is as durable as one of
 * `immediateTransaction`. For writes many requests make at once (a chat's batches of events
 * while many turns stream): the cost of a transaction is mostly its commit (the pages it writes
 * to the log), shared by the writes of a group. Call it in the store's resource: writes still
 * waiting when it ends are refused.
 */
export function* useGroupedWrites(db: Database.Database): Operation<GroupedWrite> {
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const savepoint = db.prepare('SAVEPOINT grouped_write')
  const release = db.prepare('RELEASE grouped_write')
  const undo = db.prepare('ROLLBACK TO grouped_write')
  type Pending = { write: () => unknown; resolve(value: unknown): void; reject(error: unknown): void }
  let pending: Pending[] = []
  let scheduled: NodeJS.Immediate | undefined

  const flush = () => {
    scheduled = undefined
    const writes = pending
    pending = []
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = []
    try {
      begin.run()
      for (const { write } of writes) {
        savepoint.run()
        try {
          outcomes.push({ ok: true, value: write() })
          release.run()
        } catch (error) {
          undo.run()
          release.run()
          outcomes.push({ ok: false, error })
        }
      }
      commit.run()
    } catch (error) {
      if (db.inTransaction) rollback.run()
      for (const { reject } of writes) reject(error)
      return
    }
    writes.forEach(({ resolve, reject }, index) => {
      const outcome = outcomes[index]!
      if (outcome.ok) resolve(outcome.value)
      else reject(outcome.error)
    })
  }
  yield* ensure(() => {
    if (scheduled) clearImmediate(scheduled)
    const refused = new Error('The store closed before this write was committed.')
    for (const { reject } of pending.splice(0)) reject(refused)
  })

  return function* grouped<R>(write: () => R): Operation<R> {
    const done = withResolvers<R>('a grouped write to commit')
    pending.push({ write, resolve: done.resolve as (value: unknown) => void, reject: done.reject })
    scheduled ??= setImmediate(flush)
    return yield* done.operation
  }
}

/**
 * `journal_mode = WAL`: a new database's switch writes its header, and while another connection
 * holds the write lock (another process creating the same database) SQLite answers SQLITE_BUSY
 * at once, without the busy timeout (it asks for the lock inside the statement's own read
 * transaction, where waiting could deadlock). So the switch is tried again after a short pause,
 * for up to `LOCK_WAIT_MS`. A database already in write-ahead-log mode stays as it is.
 */
function* useWriteAheadLog(db: Database.Database): Operation<void> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if (!isBusy(error) || Date.now() + pause > deadline) throw error
    }
    yield* sleep(pause)
  }
}

/** SQLITE_BUSY, or one of its extended codes: another connection holds a lock this one needs. */
function isBusy(error: unknown): boolean {
  const { code, rawCode } = error as { code?: unknown; rawCode?: unknown }
  return (typeof rawCode === 'number' && (rawCode & 0xff) === 5) || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))
}

function refusal(failure: string, path: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error)
  const advice = isBusy(error)
    ? `Another process held ${path} locked for more than ${LOCK_WAIT_MS / 1000} s while this one opened it: end what holds it ` +
      '(a sqlite3 shell in a transaction, a backup), or give this server a DATA_DIR of its own.'
    : 'Set DATA_DIR to a writable directory.'
  return new Error(`${failure}: ${reason}. ${advice}`, { cause: error })
}
