import { join } from 'node:path'
import { resource, type Operation } from 'effection'
import type Database from 'libsql'
import { immediateTransaction, openEmbeddedDatabase } from '../../storage/embedded-database'
import type { Message } from '../../protocol/messages'
import type { ChatSummary } from '../chat'
import type { ConversationStore } from '../conversation-store'
import { tooManyChats } from '../errors'
import { waitingCalls } from '../waiting'
import { assembleTurns, byteLength, decodeEntry, entriesOf, type EntryKind } from './chat-entries'
import { embeddedTurnWrites, type ChatRow } from './embedded-turns'

export interface EmbeddedConversationStoreOptions {
  /** `DATA_DIR`: the chats are kept in `<directory>/conversations.db`. */
  directory: string
}

/**
 * The database file under `DATA_DIR`. Not the sessions' `sessions.db`: SQLite has one writer per
 * database, and a chat's appends (one per turn of the event loop while a turn streams) would
 * queue behind, and ahead of, the sessions' compare-and-sets on the answer path. Its own file
 * also lets an operator back up, move or drop the chats without touching waiting sessions.
 */
export const CONVERSATIONS_DATABASE_FILE = 'conversations.db'


/** At most this many deleted chats are purged per `sweep`, so one sweep never holds the writer long. */
const SWEEP_BATCH = 200

/**
 * `chats` is the index: one small row per chat, with what the list shows and what the limits
 * count. `chats_listed` covers the list (owner, order, every column the list shows, and
 * `purge_at`, always null there, which the query names), so a page of the list reads that index
 * and nothing else. `chat_entries` holds the turns: one row per turn input and one per batch of
 * events, in `rowid` order. `chat_states` holds each chat's conversation state (the whole
 * signed conversation, which grows with the chat): in a table of its own, written only when a
 * turn ends with a new one, so that an append — which updates its chat's row — never rewrites it.
 */
const SCHEMA = `
  create table if not exists chats (
    owner text not null,
    id text not null,
    title text not null,
    created_at integer not null,
    updated_at integer not null,
    purge_at integer,
    turns integer not null,
    events integer not null,
    bytes integer not null,
    waiting_calls text not null,
    state_bytes integer not null,
    primary key (owner, id)
  );
  create index if not exists chats_listed on chats (owner, updated_at desc, id desc, title, created_at, waiting_calls, purge_at) where purge_at is null;
  create index if not exists chats_by_purge on chats (purge_at) where purge_at is not null;
  create table if not exists chat_entries (
    owner text not null,
    chat_id text not null,
    turn integer not null,
    kind text not null,
    data text not null
  );
  create index if not exists chat_entries_by_chat on chat_entries (owner, chat_id);
  create table if not exists chat_states (
    owner text not null,
    id text not null,
    state text not null,
    primary key (owner, id)
  );
`

/**
 * A database an earlier version made kept the conversation state as the last column of `chats`
 * (each append rewrote it): the states move to `chat_states` and the column goes, in the
 * opening's transaction (`openEmbeddedDatabase`), before the schema is used. Its entries (one row
 * per event, kind `event`) are read as they are.
 */
function migrate(db: Database.Database): void {
  const columns = db.prepare("select name from pragma_table_info('chats')").all() as Array<{ name: string }>
  if (!columns.some((column) => column.name === 'state')) return
  db.exec(`
    insert or replace into chat_states (owner, id, state) select owner, id, state from chats where state is not null;
    alter table chats drop column state;
  `)
}

interface ListedRow {
  id: string
  title: string
  created_at: number
  updated_at: number
  waiting_calls: string
}

/**
 * The default `ConversationStore`: SQLite (libsql) in `DATA_DIR/conversations.db`, kept across
 * restarts and crashes, shared by the processes of one machine, with no service to run. The same
 * durability as the session store (write-ahead log, `synchronous = NORMAL`): a write that returned
 * survives `kill -9`. Each write is one short transaction (`immediate`: it takes the write lock
 * first, so its reads and checks hold until it commits).
 */
export function useEmbeddedConversationStore({ directory }: EmbeddedConversationStoreOptions): Operation<ConversationStore> {
  return resource(function* (provide) {
    const db = yield* openEmbeddedDatabase({
      directory,
      file: CONVERSATIONS_DATABASE_FILE,
      prepare(opened) {
        opened.exec(SCHEMA)
        migrate(opened)
      },
      failure: `The chats cannot be kept in ${join(directory, CONVERSATIONS_DATABASE_FILE)}`,
    })

    const statements = {
      row: db.prepare<[string, string]>('select turns, events, bytes, waiting_calls, state_bytes, purge_at from chats where owner = ? and id = ?'),
      count: db.prepare<[string]>('select count(*) as count from chats where owner = ? and purge_at is null'),
      insert: db.prepare(
        `insert into chats (owner, id, title, created_at, updated_at, purge_at, turns, events, bytes, waiting_calls, state_bytes)
         values (@owner, @id, @title, @createdAt, @updatedAt, null, @turns, @events, @bytes, @waitingCalls, @stateBytes)`,
      ),
      insertEntry: db.prepare<[string, string, number, string, string]>('insert into chat_entries (owner, chat_id, turn, kind, data) values (?, ?, ?, ?, ?)'),
      listFirst: db.prepare<[string, number]>(
        `select id, title, created_at, updated_at, waiting_calls from chats indexed by chats_listed
         where owner = ? and purge_at is null order by updated_at desc, id desc limit ?`,
      ),
      listAfter: db.prepare(
        `select id, title, created_at, updated_at, waiting_calls from chats indexed by chats_listed
         where owner = @owner and purge_at is null and (updated_at < @updatedAt or (updated_at = @updatedAt and id < @id))
         order by updated_at desc, id desc limit @limit`,
      ),
      chat: db.prepare<[string, string]>(
        `select chats.id, title, created_at, updated_at, waiting_calls, state from chats left join chat_states using (owner, id)
         where chats.owner = ? and chats.id = ? and purge_at is null`,
      ),
      summary: db.prepare<[string, string]>('select id, title, created_at, updated_at, waiting_calls from chats where owner = ? and id = ? and purge_at is null'),
      entries: db.prepare<[string, string]>('select turn, kind, data from chat_entries where owner = ? and chat_id = ? order by rowid'),
      // In place when the chat has one: cheaper than `insert or replace` (a delete and an insert), and a turn writes one at its end.
      putState: db.prepare<[string, string, string]>('insert into chat_states (owner, id, state) values (?, ?, ?) on conflict (owner, id) do update set state = excluded.state'),
      rename: db.prepare<[string, number, string, string]>('update chats set title = ?, updated_at = ? where owner = ? and id = ? and purge_at is null'),
      delete: db.prepare<[number, string, string]>('update chats set purge_at = ? where owner = ? and id = ? and purge_at is null'),
      restore: db.prepare<[string, string]>('update chats set purge_at = null where owner = ? and id = ?'),
      due: db.prepare<[number, number]>('select owner, id from chats where purge_at <= ? order by purge_at limit ?'),
      purgeChat: db.prepare<[string, string]>('delete from chats where owner = ? and id = ?'),
      purgeEntries: db.prepare<[string, string]>('delete from chat_entries where owner = ? and chat_id = ?'),
      purgeState: db.prepare<[string, string]>('delete from chat_states where owner = ? and id = ?'),
      ownedIds: db.prepare<[string]>('select id from chats where owner = ? and purge_at is null order by updated_at desc, id desc'),
      moveChat: db.prepare<[string, string, string]>('update chats set owner = ? where owner = ? and id = ?'),
      moveEntries: db.prepare<[string, string, string]>('update chat_entries set owner = ? where owner = ? and chat_id = ?'),
      moveState: db.prepare<[string, string, string]>('update chat_states set owner = ? where owner = ? and id = ?'),
      nextDue: db.prepare<[]>('select min(purge_at) as next from chats where purge_at is not null'),
    }

    const rowOf = (owner: string, id: string) => statements.row.get(owner, id) as ChatRow | undefined
    const countOf = (owner: string) => (statements.count.get(owner) as { count: number }).count

    const create = immediateTransaction(db, (owner: string, { chat, limits }: Parameters<ConversationStore['create']>[1]) => {
      if (countOf(owner) >= limits.maxChats) throw tooManyChats(limits.maxChats)
      const { entries, size } = entriesOf(chat.turns)
      const state = chat.conversationState ? JSON.stringify(chat.conversationState) : null
      statements.insert.run({
        owner,
        id: chat.id,
        title: chat.title,
        createdAt: chat.createdAt,
        updatedAt: chat.updatedAt,
        turns: chat.turns.length,
        events: size.events,
        bytes: size.bytes,
        waitingCalls: JSON.stringify(waitingCalls([], chat.turns.flatMap((turn) => turn.events))),
        stateBytes: state === null ? 0 : byteLength(state),
      })
      if (state !== null) statements.putState.run(owner, chat.id, state)
      for (const entry of entries) statements.insertEntry.run(owner, chat.id, entry.turn, entry.kind, entry.text)
    })

    const turns = embeddedTurnWrites(db, {
      rowOf,
      insertEntry: (owner, id, turn, kind, text) => statements.insertEntry.run(owner, id, turn, kind, text),
      putState: (owner, id, state) => statements.putState.run(owner, id, state),
    })

    const restore = immediateTransaction(db, (owner: string, id: string, { at, limits }: Parameters<ConversationStore['restore']>[2]) => {
      const row = rowOf(owner, id)
      if (!row) return false
      if (row.purge_at === null) return true
      if (row.purge_at <= at) return false
      if (countOf(owner) >= limits.maxChats) throw tooManyChats(limits.maxChats)
      statements.restore.run(owner, id)
      return true
    })

    // One transaction: every chat is under one owner or the other, never both or neither.
    const moveChats = immediateTransaction(db, (from: string, to: string, { limits }: Parameters<ConversationStore['moveChats']>[2]) => {
      if (from === to) return 0
      let room = limits.maxChats - countOf(to)
      let moved = 0
      for (const { id } of statements.ownedIds.all(from) as Array<{ id: string }>) {
        if (room <= 0) break
        if (rowOf(to, id)) continue
        statements.moveChat.run(to, from, id)
        statements.moveEntries.run(to, from, id)
        statements.moveState.run(to, from, id)
        room--
        moved++
      }
      return moved
    })

    const sweep = immediateTransaction(db, (now: number) => {
      const due = statements.due.all(now, SWEEP_BATCH) as Array<{ owner: string; id: string }>
      for (const { owner, id } of due) {
        statements.purgeEntries.run(owner, id)
        statements.purgeState.run(owner, id)
        statements.purgeChat.run(owner, id)
      }
      return due.length
    })

    const summaryOf = (row: ListedRow): ChatSummary => ({
      id: row.id,
      title: row.title,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      waitingCalls: JSON.parse(row.waiting_calls) as string[],
    })

    yield* provide({
      kind: 'embedded',

      *create(owner, options) {
        create(owner, options)
      },

      *list(owner, { limit, after }) {
        const rows = (after ? statements.listAfter.all({ owner, updatedAt: after.updatedAt, id: after.id, limit }) : statements.listFirst.all(owner, limit)) as ListedRow[]
        return rows.map(summaryOf)
      },

      *get(owner, id) {
        const row = statements.chat.get(owner, id) as (ListedRow & { state: string | null }) | undefined
        if (!row) return undefined
        const state = row.state === null ? undefined : (JSON.parse(row.state) as Message[])
        const entries = (statements.entries.all(owner, id) as Array<{ turn: number; kind: EntryKind; data: string }>).map((entry) =>
          decodeEntry(entry.turn, entry.kind, entry.data),
        )
        return { ...summaryOf(row), turns: assembleTurns(entries, state), ...(state ? { conversationState: state } : {}) }
      },

      *summary(owner, id) {
        const row = statements.summary.get(owner, id) as ListedRow | undefined
        return row && summaryOf(row)
      },

      *startTurn(owner, id, options) {
        return options.check ? turns.check(owner, id, options) : turns.start(owner, id, options)
      },

      *appendEvents(owner, id, options) {
        return turns.append(owner, id, options)
      },

      *rename(owner, id, { title, at }) {
        return statements.rename.run(title, at, owner, id).changes === 1
      },

      *delete(owner, id, { purgeAt }) {
        return statements.delete.run(purgeAt, owner, id).changes === 1
      },

      *restore(owner, id, options) {
        return restore(owner, id, options)
      },

      *moveChats(from, to, options) {
        return moveChats(from, to, options)
      },

      *sweep(now) {
        // A full batch may have left more that are due: sweep again at once.
        if (sweep(now) === SWEEP_BATCH) return now
        const { next } = statements.nextDue.get() as { next: number | null }
        return next ?? undefined
      },
    })
  })
}

