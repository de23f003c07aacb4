import { join } from 'node:path'
import { resource, type Operation } from 'effection'
import { openEmbeddedDatabase } from '../../../../storage/embedded-database'
import type { CredentialStore } from '../credential-store'

/** The database file under `DATA_DIR`: its own, like the sign-in's. */
export const CREDENTIALS_DATABASE_FILE = 'mcp-credentials.db'

const SCHEMA = `
  create table if not exists mcp_credentials (
    key text primary key,
    sealed text not null,
    expires_at integer
  ) without rowid;
  create index if not exists mcp_credentials_by_expiry on mcp_credentials (expires_at) where expires_at is not null;
`

/**
 * The default `CredentialStore`: SQLite in `DATA_DIR/mcp-credentials.db`, shared by the
 * processes of one machine and kept across restarts. Every value in it is sealed already.
 */
export function useEmbeddedCredentialStore({ directory }: { directory: string }): Operation<CredentialStore> {
  return resource(function* (provide) {
    const db = yield* openEmbeddedDatabase({
      directory,
      file: CREDENTIALS_DATABASE_FILE,
      prepare: (opened) => opened.exec(SCHEMA),
      failure: `The MCP servers' credentials cannot be kept in ${join(directory, CREDENTIALS_DATABASE_FILE)}`,
    })
    const statements = {
      forget: db.prepare<[number]>('delete from mcp_credentials where expires_at is not null and expires_at <= ?'),
      put: db.prepare<[string, string, number | null]>('insert or replace into mcp_credentials (key, sealed, expires_at) values (?, ?, ?)'),
      get: db.prepare<[string]>('select sealed, expires_at from mcp_credentials where key = ?'),
      take: db.prepare<[string]>('delete from mcp_credentials where key = ? returning sealed, expires_at'),
      delete: db.prepare<[string]>('delete from mcp_credentials where key = ?'),
    }
    type Row = { sealed: string; expires_at: number | null } | undefined
    const live = (row: Row, now: number) => (row && (row.expires_at === null || row.expires_at > now) ? row.sealed : undefined)
    yield* provide({
      kind: 'embedded',
      *put(key, sealed, expiresAt) {
        statements.forget.run(Date.now())
        statements.put.run(key, sealed, expiresAt ?? null)
      },
      *get(key, now) {
        return live(statements.get.get(key) as Row, now)
      },
      *take(key, now) {
        // One statement: of two takers of one key, exactly one gets its row back.
        return live(statements.take.get(key) as Row, now)
      },
      *delete(key) {
        statements.delete.run(key)
      },
    })
  })
}
