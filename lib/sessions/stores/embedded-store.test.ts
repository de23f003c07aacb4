import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensure, run, until } from 'effection'
import { asBinary, open } from 'lmdb'
import { afterAll, describe, expect, it } from 'vitest'
import { EMBEDDED_DATABASES, useEmbeddedSessionStore } from './embedded-store'
import { describeSessionStoreContract } from './session-store-contract'

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
        // A second handle on the same files, writing bytes that are not MessagePack.
        const env = open({ path: join(directory, 'sessions') })
        yield* ensure(() => until(env.close()))
        const sessions = env.openDB({ name: EMBEDDED_DATABASES.sessions, useVersions: true })
        yield* until(sessions.put([clientId, id], asBinary(Buffer.from([0xc1, 0xff, 0x00])), 1))
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
