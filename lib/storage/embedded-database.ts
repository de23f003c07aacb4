import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ensure, type Operation } from 'effection'
import Database from 'libsql'

export interface EmbeddedDatabaseOptions {
  /** `DATA_DIR`: created if needed. */
  directory: string
  /** The store's file in it (`sessions.db`, `conversations.db`, `devices.db`). */
  file: string
  /** The store's schema, and what brings an earlier version's database to it; run once, at open. */
  prepare(db: Database.Database): void
  /**
   * What the start's failure says before its reason, naming what could not be kept where (e.g.
   * `The chats cannot be kept in <path>`); `Set DATA_DIR to a writable directory.` follows.
   */
  failure: string
}

/**
 * A store's SQLite database (libsql, whose binary comes from the npm registry) in `DATA_DIR`, as
 * every embedded store opens it: shared by the processes of one machine, kept across restarts,
 * with no service to run. Write-ahead log with `synchronous = NORMAL`: a commit is in the log
 * (the OS's page cache) before it returns, so it survives `kill -9`; the log is synced at
 * checkpoints, so a power loss can lose the last moments of writes but not corrupt the database.
 * Another process holding the write lock is waited for (up to 5 s), not failed on.
 *
 * Called in the store's resource: the database closes when that scope ends. Fails at start, with
 * `failure` and the reason, when the directory cannot be created or written.
 */
export function* openEmbeddedDatabase({ directory, file, prepare, failure }: EmbeddedDatabaseOptions): Operation<Database.Database> {
  let db: Database.Database
  try {
    mkdirSync(directory, { recursive: true })
    db = new Database(join(directory, file))
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    prepare(db)
  } catch (error) {
    throw new Error(`${failure}: ${error instanceof Error ? error.message : String(error)}. Set DATA_DIR to a writable directory.`, { cause: error })
  }
  yield* ensure(() => {
    db.close()
  })
  return db
}
