import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { chatHistoryOf } from '../chat-history'
import { useConversations } from '../conversations'
import { FIRST_TURN, SECOND_TURN } from '../testing/chat-events'
import type { TurnInput } from '../chat'
import type { ChatEvent } from '@/lib/protocol/events'
import type { Operation } from 'effection'
import { openInScope, type InScope } from '@/lib/testing/in-scope'
import { newChatId } from '@/lib/protocol'
import { CONVERSATIONS_DATABASE_FILE, useEmbeddedConversationStore } from './embedded-store'

const root = mkdtempSync(join(tmpdir(), 'conversations-turns-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

const opened: Array<InScope<unknown>> = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const each of opened.splice(0)) await each.destroy()
})

/** The chats on the embedded store in `directory`, and its turns as the engine keeps them: one connection, as one server process has. */
async function keptChats(directory: string) {
  const scope = await openInScope(function* () {
    return yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
  })
  opened.push(scope)
  const conversations = scope.value
  const history = chatHistoryOf(conversations)
  return {
    conversations: <T>(operation: (chats: typeof conversations) => Operation<T>) => scope.run(() => operation(conversations)),
    /** A turn checked (`openTurn`); `keep` stores a batch of it as the stream does. */
    async open(id: string, input: TurnInput, create = false) {
      const turn = await scope.run(() => history.openTurn('owner', id, input, { create }))
      return { keep: (events: readonly ChatEvent[]) => scope.run(() => turn.keep(events)) }
    },
  }
}

/** Every statement libsql runs in this process from now on, by how it ran: `run` (a write, `BEGIN`, `COMMIT`), `get` or `all` (a read). */
function countStatements() {
  const probe = new Database(':memory:')
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'run' | 'get' | 'all', (...args: unknown[]) => unknown>
  probe.close()
  return { run: vi.spyOn(statement, 'run'), get: vi.spyOn(statement, 'get'), all: vi.spyOn(statement, 'all') }
}

/** What the chat's row counts, read as another process would. */
function rowOf(directory: string, id: string) {
  const db = new Database(join(directory, CONVERSATIONS_DATABASE_FILE))
  try {
    const row = db.prepare('select turns, events from chats where id = ?').get(id) as { turns: number; events: number }
    const entries = db.prepare("select data from chat_entries where chat_id = ? and kind = 'events'").all(id) as Array<{ data: string }>
    return { turns: row.turns, events: row.events, eventsStored: entries.reduce((sum, entry) => sum + (JSON.parse(entry.data) as unknown[]).length, 0) }
  } finally {
    db.close()
  }
}

describe('a kept turn on the embedded store', () => {
  it('reads its chat’s row once, at its check, and writes each batch in one transaction of one update and one insert', async () => {
    const directory = newDirectory()
    const chats = await keptChats(directory)
    const id = newChatId()
    const making = countStatements()
    const first = await chats.open(id, { text: 'Book a flight from NYC to LAX' }, true)
    // A new chat's check is one read: whether the id is taken and how many chats the owner keeps.
    expect({ reads: making.get.mock.calls.length + making.all.mock.calls.length, writes: making.run.mock.calls.length }).toEqual({ reads: 1, writes: 0 })
    // Its write: BEGIN, the chat's row (the count of the owner's chats in it), both entries in one insert, the state, COMMIT.
    await first.keep(FIRST_TURN)
    expect({ reads: making.get.mock.calls.length + making.all.mock.calls.length, writes: making.run.mock.calls.length }).toEqual({ reads: 1, writes: 5 })
    vi.restoreAllMocks()

    const counted = countStatements()
    const second = await chats.open(id, {})
    expect({ reads: counted.get.mock.calls.length + counted.all.mock.calls.length, writes: counted.run.mock.calls.length }).toEqual({ reads: 1, writes: 0 })
    // The input with the first batch: BEGIN, the row's update, both entries in one insert, COMMIT.
    await second.keep(SECOND_TURN.slice(0, 2))
    // A later batch, with the conversation state: BEGIN, the row's update, its entry, the state, COMMIT.
    await second.keep(SECOND_TURN.slice(2))
    expect({ reads: counted.get.mock.calls.length + counted.all.mock.calls.length, writes: counted.run.mock.calls.length }).toEqual({ reads: 1, writes: 9 })
    expect(rowOf(directory, id)).toEqual({ turns: 2, events: FIRST_TURN.length + SECOND_TURN.length, eventsStored: FIRST_TURN.length + SECOND_TURN.length })
  })

  it('writes from the chat as it is when another process wrote it between the turn’s check and its write', async () => {
    const directory = newDirectory()
    const [mine, theirs] = [await keptChats(directory), await keptChats(directory)]
    const id = newChatId()
    await (await mine.open(id, { text: 'Book a flight from NYC to LAX' }, true)).keep(FIRST_TURN)

    const checked = await mine.open(id, { text: 'mine' })
    // Another process's turn of the same chat, whole, after this one's check.
    const other = await theirs.open(id, { text: 'theirs' })
    await other.keep(SECOND_TURN.slice(0, 2))
    await other.keep(SECOND_TURN.slice(2))
    await checked.keep([{ type: 'text', content: 'after theirs' }])
    await checked.keep([{ type: 'complete', text: 'after theirs' }])

    expect(rowOf(directory, id)).toEqual({ turns: 3, events: FIRST_TURN.length + SECOND_TURN.length + 2, eventsStored: FIRST_TURN.length + SECOND_TURN.length + 2 })
    const chat = await theirs.conversations((chats) => chats.get('owner', id))
    expect(chat!.turns.map((turn) => turn.input.text ?? '')).toEqual(['Book a flight from NYC to LAX', 'theirs', 'mine'])
    expect(chat!.turns[2]!.events).toEqual([
      { type: 'text', content: 'after theirs' },
      { type: 'complete', text: 'after theirs' },
    ])
  })

  it('is refused, storing nothing, when another process deleted its chat after the check', async () => {
    const directory = newDirectory()
    const [mine, theirs] = [await keptChats(directory), await keptChats(directory)]
    const id = newChatId()
    await (await mine.open(id, { text: 'Book a flight from NYC to LAX' }, true)).keep(FIRST_TURN)
    const checked = await mine.open(id, { text: 'mine' })
    await theirs.conversations((chats) => chats.delete('owner', id))

    await expect(checked.keep([{ type: 'text', content: 'too late' }])).rejects.toMatchObject({ code: 'chat_not_found' })
    expect(rowOf(directory, id)).toEqual({ turns: 1, events: FIRST_TURN.length, eventsStored: FIRST_TURN.length })
  })
})
