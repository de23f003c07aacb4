import { join } from 'node:path'
import { resource, type Operation } from 'effection'
import { openEmbeddedDatabase } from '../../storage/embedded-database'
import type { AuthSession, AuthStore, SignInFlow } from '../auth-store'

/** The database file under `DATA_DIR`: its own, like the devices'. */
export const AUTH_DATABASE_FILE = 'auth.db'

const SCHEMA = `
  create table if not exists auth_sessions (
    id text primary key,
    record text not null,
    checked_at integer not null,
    expires_at integer not null
  ) without rowid;
  create index if not exists auth_sessions_by_expiry on auth_sessions (expires_at);
  create table if not exists auth_flows (
    state text primary key,
    record text not null,
    expires_at integer not null
  ) without rowid;
  create index if not exists auth_flows_by_expiry on auth_flows (expires_at);
`

/**
 * The default `AuthStore`: SQLite in `DATA_DIR/auth.db`, shared by the processes of one machine
 * and kept across restarts. A session is a row; reading it is a point read of the primary key
 * (microseconds), so every request sees a sign-out made by any process at once.
 */
export function useEmbeddedAuthStore({ directory }: { directory: string }): Operation<AuthStore> {
  return resource(function* (provide) {
    const db = yield* openEmbeddedDatabase({
      directory,
      file: AUTH_DATABASE_FILE,
      prepare: (opened) => opened.exec(SCHEMA),
      failure: `The sign-in sessions cannot be kept in ${join(directory, AUTH_DATABASE_FILE)}`,
    })
    const statements = {
      forgetFlows: db.prepare<[number]>('delete from auth_flows where expires_at <= ?'),
      putFlow: db.prepare<[string, string, number]>('insert or replace into auth_flows (state, record, expires_at) values (?, ?, ?)'),
      takeFlow: db.prepare<[string]>('delete from auth_flows where state = ? returning record, expires_at'),
      forgetSessions: db.prepare<[number]>('delete from auth_sessions where expires_at <= ?'),
      putSession: db.prepare<[string, string, number, number]>('insert or replace into auth_sessions (id, record, checked_at, expires_at) values (?, ?, ?, ?)'),
      getSession: db.prepare<[string]>('select record, checked_at, expires_at from auth_sessions where id = ?'),
      claim: db.prepare<[number, string, number]>('update auth_sessions set checked_at = ? where id = ? and checked_at = ?'),
      end: db.prepare<[string]>('delete from auth_sessions where id = ?'),
    }
    yield* provide({
      kind: 'embedded',
      *putFlow(flow) {
        statements.forgetFlows.run(Date.now())
        statements.putFlow.run(flow.state, JSON.stringify(flow), flow.expiresAt)
      },
      *takeFlow(state, now) {
        // One statement: of two callbacks with one state, exactly one gets its row back.
        const row = statements.takeFlow.get(state) as { record: string; expires_at: number } | undefined
        return row && row.expires_at > now ? (JSON.parse(row.record) as SignInFlow) : undefined
      },
      *putSession(session) {
        statements.forgetSessions.run(session.createdAt)
        statements.putSession.run(session.id, JSON.stringify(session), session.checkedAt, session.expiresAt)
      },
      *getSession(id, now) {
        const row = statements.getSession.get(id) as { record: string; checked_at: number; expires_at: number } | undefined
        if (!row || row.expires_at <= now) return undefined
        return { ...(JSON.parse(row.record) as AuthSession), checkedAt: row.checked_at }
      },
      *claimCheck(id, seen, now) {
        return statements.claim.run(now, id, seen).changes > 0
      },
      *endSession(id) {
        statements.end.run(id)
      },
    })
  })
}
