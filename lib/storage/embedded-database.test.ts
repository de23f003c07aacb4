import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, spawn } from 'effection'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'
import { openEmbeddedDatabase, useGroupedWrites } from './embedded-database'

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

describe('useGroupedWrites', () => {
  it('commits the writes of one turn of the event loop in one transaction, a failing one undone alone and thrown to its caller', async () => {
    const directory = join(root, 'grouped')
    const outcome = await run(function* () {
      const db = yield* openEmbeddedDatabase({ directory, file: 'g.db', prepare: (opened) => opened.exec('create table if not exists t (x unique)'), failure: 'The test database cannot be kept' })
      const grouped = yield* useGroupedWrites(db)
      const insert = db.prepare('insert into t (x) values (?)')
      // Another connection sees the database as the commits leave it.
      const other = new Database(join(directory, 'g.db'))
      const seen = () => (other.prepare('select x from t order by x').all() as Array<{ x: number }>).map((row) => row.x)
      try {
        const writes = []
        for (const x of [1, 2, 1, 3]) {
          writes.push(
            yield* spawn(function* () {
              try {
                return { x, changes: (yield* grouped(() => insert.run(x).changes)) as number, seenThen: seen() }
              } catch (error) {
                return { x, refused: (error as Error).message, seenThen: seen() }
              }
            }),
          )
        }
        const results = []
        for (const write of writes) results.push(yield* write)
        return { results, after: seen(), inTransaction: db.inTransaction }
      } finally {
        other.close()
      }
    })
    // Each caller resumed once its group had committed: all four see the three rows.
    expect(outcome.results).toEqual([
      { x: 1, changes: 1, seenThen: [1, 2, 3] },
      { x: 2, changes: 1, seenThen: [1, 2, 3] },
      { x: 1, refused: expect.stringMatching(/UNIQUE/), seenThen: [1, 2, 3] },
      { x: 3, changes: 1, seenThen: [1, 2, 3] },
    ])
    expect(outcome).toMatchObject({ after: [1, 2, 3], inTransaction: false })
  })
})
