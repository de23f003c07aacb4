import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ensure, sleep, type Operation } from 'effection'
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
