import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { useConversations, useEmbeddedConversationStore } from '../conversations'
import { openInScope } from '@/lib/testing/in-scope'
import type { ChatEvent } from '../protocol/events'

const directory = mkdtempSync(join(tmpdir(), 'chat-history-kill-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('a turn of a kept chat killed mid-stream', () => {
  it('keeps every event the browser had received when the server process is killed with SIGKILL', async () => {
    const server = fileURLToPath(new URL('../server/testing/streaming-chat-process.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', server, directory], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    const received = () => [...output.matchAll(/^received (.+)$/gm)].map((match) => JSON.parse(match[1]!) as ChatEvent)
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        // Killed while the model's answer streams: well into the turn, between two batches or in one.
        if (received().filter((event) => event.type === 'text').length >= 200) {
          child.kill('SIGKILL')
          resolve()
        }
      })
      void exited.then(() => reject(new Error(`the server exited before the browser had received 200 pieces of text:\n${output}`)))
    })
    expect(await exited).toBe('SIGKILL')
    expect(output).not.toContain('ended')
    const id = /^chat (\S+)$/m.exec(output)![1]!
    const seen = received()

    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    try {
      const chat = await opened.run(() => opened.value.get('owner', id))
      const stored = chat!.turns[0]!.events
      // Everything the browser saw is stored, in order; past it, at most what was stored and not yet read.
      expect(stored.slice(0, seen.length)).toEqual(seen)
      expect(stored.length).toBeGreaterThanOrEqual(seen.length)
      expect(seen.filter((event) => event.type === 'text').slice(0, 3)).toEqual([0, 1, 2].map((piece) => ({ type: 'text', content: `piece ${piece} ` })))
    } finally {
      await opened.destroy()
    }
  })
})
