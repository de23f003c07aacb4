import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import type { SessionRecord } from '../session-record'
import { EMBEDDED_DATABASE_FILE } from '../stores/embedded-store'

/**
 * Writes in `directory` the session database an earlier version made (its sessions in a
 * `without rowid` table, with an index by status), holding `record` at `version`: what the
 * embedded store must migrate at open without losing it.
 */
export function writeEarlierSessionDatabase(directory: string, record: SessionRecord, version: number): void {
  mkdirSync(directory, { recursive: true })
  const old = new Database(join(directory, EMBEDDED_DATABASE_FILE))
  try {
    old.exec(`
      create table sessions (
        client_id text not null, id text not null, version integer not null, status text not null,
        expires_at integer not null, keep_until integer not null, record text not null,
        primary key (client_id, id)
      ) without rowid;
      create index sessions_by_keep_until on sessions (keep_until);
      create index sessions_by_status on sessions (status);
      create index sessions_open_by_client on sessions (client_id, expires_at) where status in ('waiting', 'running');
      create index sessions_open_by_expiry on sessions (expires_at) where status in ('waiting', 'running');
    `)
    old
      .prepare('insert into sessions values (?, ?, ?, ?, ?, ?, ?)')
      .run(record.clientId, record.id, version, record.status, record.expiresAt, record.keepUntil, JSON.stringify(record))
  } finally {
    old.close()
  }
}
