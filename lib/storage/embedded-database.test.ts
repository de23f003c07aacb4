import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run } from 'effection'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'
import { openEmbeddedDatabase } from './embedded-database'

const root = mkdtempSync(join(tmpdir(), 'embedded-database-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// Several processes opening at once: lib/server/embedded-stores-at-once.test.ts.
describe('openEmbeddedDatabase', () => {
  it('opens in write-ahead-log mode and runs prepare in a transaction that holds the write lock', async () => {
    const directory = join(root, 'opens')
    const seen = await run(function* () {
      const db = yield* openEmbeddedDatabase({
        directory,
        file: 'a.db',
        prepare(opened) {
          opened.exec('create table if not exists t (x)')
          // Another connection cannot begin to write meanwhile: the transaction is IMMEDIATE.
          const other = new Database(join(directory, 'a.db'))
          try {
            expect(() => other.exec('begin immediate')).toThrow(/locked/)
          } finally {
            other.close()
          }
        },
        failure: 'The test database cannot be kept',
      })
      return { mode: db.prepare('pragma journal_mode').get(), inTransaction: db.inTransaction }
    })
    expect(seen).toMatchObject({ mode: { journal_mode: 'wal' }, inTransaction: false })
  })

  it('fails with a clear error, naming the file, when another connection (another process) holds its lock for more than 5 s', { timeout: 30_000 }, async () => {
    const directory = join(root, 'held')
    const file = join(directory, 'held.db')
    await run(function* () {
      yield* openEmbeddedDatabase({ directory, file: 'held.db', prepare: () => {}, failure: 'x' })
    })
    const holder = new Database(file)
    try {
      holder.exec('begin exclusive')
      const opening = run(function* () {
        yield* openEmbeddedDatabase({ directory, file: 'held.db', prepare: () => {}, failure: 'The test database cannot be kept' })
      })
      await expect(opening).rejects.toThrow(
        `The test database cannot be kept: database is locked. Another process held ${file} locked for more than 5 s while this one opened it`,
      )
    } finally {
      holder.close()
    }
  })
})
