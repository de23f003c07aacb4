import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { run } from 'effection'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'
import { EMBEDDED_DATABASE_FILE, useEmbeddedSessionStore } from './embedded-store'
import { writeEarlierSessionDatabase } from '../testing/earlier-session-database'
import { describeSessionStoreContract, sessionRecord } from './session-store-contract'

const root = mkdtempSync(join(tmpdir(), 'embedded-store-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

describeSessionStoreContract('embedded', {
  expiresItself: false,
  *setup() {
    const directory = newDirectory()
    const store = yield* useEmbeddedSessionStore({ directory })
    return {
      store,
      *corrupt(clientId, id) {
        // A second handle on the same database, writing a record that is not JSON.
        const db = new Database(join(directory, EMBEDDED_DATABASE_FILE))
        try {
          db.prepare('update sessions set record = ? where client_id = ? and id = ?').run('{"format": 1, "id": tru', clientId, id)
        } finally {
          db.close()
        }
      },
    }
  },
})

describe('embedded session store', () => {
  it('keeps what a process wrote when that process is killed with SIGKILL', async () => {
    const directory = newDirectory()
    const writer = fileURLToPath(new URL('../testing/embedded-store-writer.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', writer, directory], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('written')) resolve()
      })
      void exited.then(() => reject(new Error(`the writer exited before writing:\n${output}`)))
    })
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')

    await run(function* () {
      const store = yield* useEmbeddedSessionStore({ directory })
      expect(yield* store.get('client-a', 'created')).toMatchObject({ version: 1, record: { status: 'waiting' } })
      expect(yield* store.get('client-a', 'updated')).toMatchObject({ version: 2, record: { status: 'running' } })
      expect((yield* store.list({ statuses: ['running'], limit: 10 })).map((record) => record.id)).toEqual(['updated'])
    })
  })

  it('keeps the sessions of a database an earlier version wrote (a without-rowid table), and continues them', async () => {
    const directory = newDirectory()
    const waiting = sessionRecord({ id: 'waiting-before-the-upgrade', status: 'waiting', expiresAt: Date.now() + 60_000, keepUntil: Date.now() + 120_000 })
    writeEarlierSessionDatabase(directory, waiting, 3)

    await run(function* () {
      const store = yield* useEmbeddedSessionStore({ directory })
      expect(yield* store.get(waiting.clientId, waiting.id)).toEqual({ record: waiting, version: 3 })
      expect(yield* store.countOpen({ clientId: waiting.clientId, now: Date.now() })).toEqual({ client: 1, all: 1 })
      expect((yield* store.list({ statuses: ['waiting'], limit: 10 })).map((record) => record.id)).toEqual([waiting.id])
      expect(yield* store.update({ ...waiting, status: 'running' }, 3)).toBe(4)
    })
    const migrated = new Database(join(directory, EMBEDDED_DATABASE_FILE))
    try {
      const table = migrated.prepare("select sql from sqlite_master where type = 'table' and name = 'sessions'").get() as { sql: string }
      expect(table.sql).not.toMatch(/without rowid/i)
      const names = (migrated.prepare("select name from sqlite_master where type in ('table', 'index') order by name").all() as { name: string }[]).map(({ name }) => name)
      expect(names).not.toContain('sessions_before_rowid')
      expect(names).not.toContain('sessions_by_status')
    } finally {
      migrated.close()
    }
  })

  it('fails at start naming the directory and DATA_DIR when it cannot create the directory', async () => {
    const file = join(root, 'a-file')
    writeFileSync(file, '')
    const directory = join(file, 'data')
    const start = run(function* () {
      yield* useEmbeddedSessionStore({ directory })
    })
    await expect(start).rejects.toThrow(directory)
    await expect(start).rejects.toThrow(/Set DATA_DIR to a writable directory/)
  })
})
