import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { run } from 'effection'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useConversations, useEmbeddedConversationStore } from '../conversations'
import { conversation } from '../conversations/testing/chat-events'
import { EARLIER_CHAT, writeEarlierChatsDatabase } from '../conversations/testing/earlier-chats-database'
import { useEmbeddedSessionStore } from '../sessions/stores/embedded-store'
import { sessionRecord } from '../sessions/stores/session-store-contract'
import { writeEarlierSessionDatabase } from '../sessions/testing/earlier-session-database'

/**
 * Servers started at once on one `DATA_DIR` open the same embedded databases at the same moment
 * (issue 34). Here real processes, each opening every store a server opens at start
 * (`testing/open-embedded-stores.ts`), are told the directory together once all are loaded, and
 * again for each round. `reliability/start-together.test.ts` does the same with production servers.
 */
const PROCESSES = 4
const ROUNDS = 10
const opener = fileURLToPath(new URL('./testing/open-embedded-stores.ts', import.meta.url))

const root = mkdtempSync(join(tmpdir(), 'stores-at-once-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface Opener {
  /** Has every store opened in `directory`; resolves once it has, rejects with its output if it exits. */
  open(directory: string): Promise<void>
  kill(): void
}

let openers: Opener[] = []
beforeEach(async () => {
  openers = await Promise.all(Array.from({ length: PROCESSES }, startOpener))
}, 60_000)
afterEach(() => {
  for (const opener of openers) opener.kill()
})

/** A process ready to open the stores: resolves once it is loaded. */
async function startOpener(): Promise<Opener> {
  const child = spawn(process.execPath, ['--import', 'tsx', opener], { stdio: ['pipe', 'pipe', 'pipe'] })
  let output = ''
  /** Called with each line it prints, and with undefined once it has exited. */
  let listener: (line: string | undefined) => void = () => {}
  let exited = false
  child.once('exit', () => {
    exited = true
    listener(undefined)
  })
  let pending = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    pending += chunk.toString()
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) listener(line)
  })
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  /** The next line `awaited` it prints; rejects with everything it printed if it exits first. */
  const next = (awaited: string) =>
    new Promise<void>((resolve, reject) => {
      listener = (line) => {
        if (line === awaited) resolve()
        else if (line === undefined) reject(new Error(`exited (${child.exitCode ?? child.signalCode}):\n${output}`))
      }
      if (exited) listener(undefined)
    })
  await next('ready')
  return {
    open(directory) {
      const opened = next('opened')
      child.stdin.write(`${directory}\n`)
      return opened
    },
    kill: () => child.kill('SIGKILL'),
  }
}

/** Every opener opens the stores in `directory` at once; the output of each that failed. */
async function openTogether(directory: string): Promise<string[]> {
  const outcomes = await Promise.allSettled(openers.map((opener) => opener.open(directory)))
  return outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []))
}

describe('every embedded store, opened by several processes at once', () => {
  it(`opens in each of ${PROCESSES} processes on a fresh DATA_DIR, ${ROUNDS} times, and again on the last`, { timeout: 60_000 }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      expect(await openTogether(join(root, `fresh-${round}`)), `round ${round}`).toEqual([])
    }
    expect(await openTogether(join(root, `fresh-${ROUNDS}`)), 'again on the last').toEqual([])
  })

  it(`opens in each of ${PROCESSES} processes on a DATA_DIR an earlier version wrote, migrated once, nothing lost`, { timeout: 60_000 }, async () => {
    const directory = join(root, 'earlier')
    const waiting = sessionRecord({ id: 'waiting-before-the-upgrade' })
    const state = conversation('Book a flight', 'Which seat?')
    writeEarlierSessionDatabase(directory, waiting, 3)
    writeEarlierChatsDatabase(directory, state)
    expect(await openTogether(directory)).toEqual([])

    await run(function* () {
      const sessions = yield* useEmbeddedSessionStore({ directory })
      expect(yield* sessions.get(waiting.clientId, waiting.id)).toEqual({ record: waiting, version: 3 })
      expect(yield* sessions.countOpen({ clientId: waiting.clientId, now: Date.now() })).toEqual({ client: 1, all: 1 })
      const chats = yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
      expect(yield* chats.get(EARLIER_CHAT.owner, EARLIER_CHAT.id)).toMatchObject({ title: 'Book a flight', waitingCalls: ['call_seat_1'], conversationState: state })
    })
  })
})
