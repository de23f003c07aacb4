import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import { afterAll, describe, expect, it } from 'vitest'
import { useConversations } from '../conversations'
import { BOOKING_CALL, conversation, FIRST_TURN } from '../testing/chat-events'
import { openInScope } from '@/lib/testing/in-scope'
import { describeConversationStoreContract } from '../testing/conversation-store-contract'
import { writeEarlierChatsDatabase } from '../testing/earlier-chats-database'
import { CONVERSATIONS_DATABASE_FILE, useEmbeddedConversationStore } from './embedded-store'

const root = mkdtempSync(join(tmpdir(), 'conversations-embedded-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

describeConversationStoreContract('embedded', {
  expiresItself: false,
  setup: () => useEmbeddedConversationStore({ directory: newDirectory() }),
})

describe('embedded conversation store', () => {
  it('keeps every event a turn had sent when its process is killed with SIGKILL mid-turn', async () => {
    const directory = newDirectory()
    const writer = fileURLToPath(new URL('../testing/embedded-streaming-writer.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', writer, directory], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        // Killed while it streams: well into the turn, between two appends or in one.
        if (output.includes('sent 200\n')) {
          child.kill('SIGKILL')
          resolve()
        }
      })
      void exited.then(() => reject(new Error(`the writer exited before it had sent 200 events:\n${output}`)))
    })
    expect(await exited).toBe('SIGKILL')
    const id = /^chat (\S+)$/m.exec(output)![1]!
    const sent = [...output.matchAll(/^sent (\d+)$/gm)].length

    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    try {
      const chat = await opened.run(() => opened.value.get('owner', id))
      const events = chat!.turns[0]!.events
      // Everything sent is there, in order; at most the one append under way when it was killed is there too, unsent.
      expect(events.length === sent || events.length === sent + 1).toBe(true)
      expect(events.slice(0, sent)).toEqual(Array.from({ length: sent }, (_, index) => ({ type: 'text', content: `piece ${index} ` })))
    } finally {
      await opened.destroy()
    }
  })

  it('keeps chats across a restart, in conversations.db beside the sessions', async () => {
    const directory = newDirectory()
    const first = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    const { id } = await first.run(() => first.value.create('owner'))
    const turn = await first.run(() => first.value.startTurn('owner', id, { text: 'Book a flight' }))
    await first.run(() => first.value.appendEvents('owner', id, turn, FIRST_TURN))
    await first.destroy()

    const second = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    try {
      const chat = await second.run(() => second.value.get('owner', id))
      expect(chat).toMatchObject({ title: 'Book a flight', waitingCalls: [BOOKING_CALL.id] })
      expect(chat!.turns[0]!.events.map((event) => event.type)).toEqual(FIRST_TURN.map((event) => event.type))
    } finally {
      await second.destroy()
    }
  })

  it('opens a database an earlier version wrote (its state in chats, an entry per event) with nothing lost', async () => {
    const directory = newDirectory()
    const state = conversation('Book a flight', 'Which seat?')
    writeEarlierChatsDatabase(directory, state)

    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    try {
      const chat = await opened.run(() => opened.value.get('owner', 'old-chat'))
      expect(chat).toMatchObject({ title: 'Book a flight', waitingCalls: ['call_seat_1'], conversationState: state })
      expect(chat!.turns).toEqual([
        { input: { text: 'Book a flight' }, events: [{ type: 'text', content: 'Which seat?' }, { type: 'conversation_state', messages: state }] },
      ])
      // And it goes on in the new form.
      const turn = await opened.run(() => opened.value.startTurn('owner', 'old-chat', { text: 'Seat 10A' }))
      await opened.run(() => opened.value.appendEvents('owner', 'old-chat', turn, [{ type: 'text', content: 'Done' }]))
      const after = await opened.run(() => opened.value.get('owner', 'old-chat'))
      expect(after!.turns.map((each) => each.events.length)).toEqual([2, 1])
      expect(after!.conversationState).toEqual(state)
    } finally {
      await opened.destroy()
    }
  })

  it('writes a batch as one entry, and the conversation state only when a turn brings one', async () => {
    const directory = newDirectory()
    const opened = await openInScope(function* () {
      return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
    })
    const { id } = await opened.run(() => opened.value.create('owner'))
    const turn = await opened.run(() => opened.value.startTurn('owner', id, { text: 'Book a flight' }))
    await opened.run(() => opened.value.appendEvents('owner', id, turn, FIRST_TURN))
    await opened.run(() => opened.value.appendEvents('owner', id, turn, [{ type: 'text', content: 'still here' }]))
    await opened.destroy()
    const db = new Database(join(directory, CONVERSATIONS_DATABASE_FILE))
    try {
      expect(db.prepare('select kind from chat_entries order by rowid').all()).toEqual([{ kind: 'input' }, { kind: 'events' }, { kind: 'events' }])
      // FIRST_TURN ends with a conversation state; the batch after it has none and leaves it as it was.
      const states = db.prepare('select state from chat_states').all() as Array<{ state: string }>
      expect(states.map((row) => JSON.parse(row.state))).toEqual([FIRST_TURN.findLast((event) => event.type === 'conversation_state')!.messages])
    } finally {
      db.close()
    }
  })

  it('lists from its covering index alone, never reading a chat’s row or entries', async () => {
    const directory = newDirectory()
    const opened = await openInScope(() => useEmbeddedConversationStore({ directory }))
    await opened.destroy()
    const db = new Database(join(directory, CONVERSATIONS_DATABASE_FILE))
    try {
      const plan = (sql: string, ...values: unknown[]) =>
        (db.prepare(`explain query plan ${sql}`).all(...values) as Array<{ detail: string }>).map((row) => row.detail).join('\n')
      const first = plan(
        'select id, title, created_at, updated_at, waiting_calls from chats indexed by chats_listed where owner = ? and purge_at is null order by updated_at desc, id desc limit ?',
        'owner',
        50,
      )
      const after = plan(
        `select id, title, created_at, updated_at, waiting_calls from chats indexed by chats_listed
         where owner = ? and purge_at is null and (updated_at < ? or (updated_at = ? and id < ?)) order by updated_at desc, id desc limit ?`,
        'owner',
        1,
        1,
        'x',
        50,
      )
      for (const text of [first, after]) {
        expect(text).toContain('USING COVERING INDEX chats_listed')
        expect(text).not.toContain('TEMP B-TREE')
      }
    } finally {
      db.close()
    }
  })
})
