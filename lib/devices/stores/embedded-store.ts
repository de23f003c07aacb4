import { join } from 'node:path'
import { resource, type Operation } from 'effection'
import { openEmbeddedDatabase } from '../../storage/embedded-database'
import { EXPIRED_CODE_KEPT_MS, type DeviceBrowser, type DeviceStore } from '../device-store'

export interface EmbeddedDeviceStoreOptions {
  /** `DATA_DIR`: the devices are kept in `<directory>/devices.db`. */
  directory: string
}

/** The database file under `DATA_DIR`: its own, like the chats' (a few small rows; nothing to queue behind). */
export const DEVICES_DATABASE_FILE = 'devices.db'

const SCHEMA = `
  create table if not exists device_codes (
    hash text primary key,
    identity text not null,
    expires_at integer not null
  );
  create index if not exists device_codes_by_identity on device_codes (identity, expires_at);
  create index if not exists device_codes_by_expiry on device_codes (expires_at);
  create table if not exists device_browsers (
    identity text not null,
    id text not null,
    name text not null,
    joined_at integer not null,
    primary key (identity, id)
  ) without rowid;
`

/**
 * The default `DeviceStore`: SQLite (libsql) in `DATA_DIR/devices.db`, kept across restarts,
 * shared by the processes of one machine. `revoked` is a point read of the primary key
 * (`device_browsers`, a `without rowid` table: one B-tree lookup, microseconds, no I/O once the
 * page is cached): a joined browser is revoked when its row is gone. Positive, so a revoke made
 * by any process on the machine holds at once for every other, with nothing to propagate.
 * Each change is one statement or one `immediate` transaction.
 */
export function useEmbeddedDeviceStore({ directory }: EmbeddedDeviceStoreOptions): Operation<DeviceStore> {
  return resource(function* (provide) {
    const db = yield* openEmbeddedDatabase({
      directory,
      file: DEVICES_DATABASE_FILE,
      prepare: (opened) => opened.exec(SCHEMA),
      failure: `The devices cannot be kept in ${join(directory, DEVICES_DATABASE_FILE)}`,
    })

    const statements = {
      forget: db.prepare<[number]>('delete from device_codes where expires_at <= ?'),
      live: db.prepare<[string, number]>('select count(*) as count from device_codes where identity = ? and expires_at > ?'),
      insertCode: db.prepare<[string, string, number]>('insert into device_codes (hash, identity, expires_at) values (?, ?, ?)'),
      take: db.prepare<[string]>('delete from device_codes where hash = ? returning identity, expires_at'),
      browser: db.prepare<[string, string]>('select 1 from device_browsers where identity = ? and id = ?'),
      count: db.prepare<[string]>('select count(*) as count from device_browsers where identity = ?'),
      insertBrowser: db.prepare<[string, string, string, number]>('insert into device_browsers (identity, id, name, joined_at) values (?, ?, ?, ?)'),
      rename: db.prepare<[string, string, string]>('update device_browsers set name = ? where identity = ? and id = ?'),
      // A without-rowid table has no rowid to order ties by: joinedAt, then id.
      browsers: db.prepare<[string]>('select id, name, joined_at from device_browsers where identity = ? order by joined_at, id'),
      revoke: db.prepare<[string, string]>('delete from device_browsers where identity = ? and id = ?'),
    }

    const addCode = db.transaction((hash: string, identity: string, expiresAt: number, now: number, maxLive: number) => {
      statements.forget.run(now - EXPIRED_CODE_KEPT_MS)
      if ((statements.live.get(identity, now) as { count: number }).count >= maxLive) return false
      statements.insertCode.run(hash, identity, expiresAt)
      return true
    })
    const addBrowser = db.transaction((identity: string, browser: DeviceBrowser, maxBrowsers: number) => {
      if (statements.browser.get(identity, browser.id)) {
        statements.rename.run(browser.name, identity, browser.id)
        return true
      }
      if ((statements.count.get(identity) as { count: number }).count >= maxBrowsers) return false
      statements.insertBrowser.run(identity, browser.id, browser.name, browser.joinedAt)
      return true
    })

    yield* provide({
      kind: 'embedded',
      *addCode(code, { now, maxLive }) {
        return addCode.immediate(code.hash, code.identity, code.expiresAt, now, maxLive)
      },
      *takeCode(hash, now) {
        // One statement: of two processes taking one code, exactly one gets its row back.
        const row = statements.take.get(hash) as { identity: string; expires_at: number } | undefined
        if (!row || row.expires_at + EXPIRED_CODE_KEPT_MS <= now) return undefined
        return { identity: row.identity, expired: row.expires_at <= now }
      },
      *addBrowser(identity, browser, { maxBrowsers }) {
        return addBrowser.immediate(identity, browser, maxBrowsers)
      },
      *browsers(identity) {
        return (statements.browsers.all(identity) as Array<{ id: string; name: string; joined_at: number }>).map((row) => ({
          id: row.id,
          name: row.name,
          joinedAt: row.joined_at,
        }))
      },
      *revoke(identity, browserId) {
        return statements.revoke.run(identity, browserId).changes > 0
      },
      revoked(identity, browserId) {
        return statements.browser.get(identity, browserId) === undefined
      },
    })
  })
}
