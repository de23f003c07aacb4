import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import type { Message } from '../../protocol/messages'
import { CONVERSATIONS_DATABASE_FILE } from '../stores/embedded-store'

/** The chat `writeEarlierChatsDatabase` writes. */
export const EARLIER_CHAT = { owner: 'owner', id: 'old-chat' } as const

/**
 * Writes in `directory` the chats database an earlier version made (the conversation state as
 * the last column of `chats`, an entry per event) holding `EARLIER_CHAT`, "Book a flight", whose
 * one turn waits for a seat, with `state`: what the embedded store must migrate at open without
 * losing it.
 */
export function writeEarlierChatsDatabase(directory: string, state: Message[]): void {
  mkdirSync(directory, { recursive: true })
  const old = new Database(join(directory, CONVERSATIONS_DATABASE_FILE))
  try {
    old.exec(`
      create table chats (owner text not null, id text not null, title text not null, created_at integer not null, updated_at integer not null,
        purge_at integer, turns integer not null, events integer not null, bytes integer not null, waiting_calls text not null,
        state_bytes integer not null, state text, primary key (owner, id));
      create table chat_entries (owner text not null, chat_id text not null, turn integer not null, kind text not null, data text not null);
    `)
    const { owner, id } = EARLIER_CHAT
    const stateText = JSON.stringify(state)
    old.prepare(`insert into chats values (?, ?, 'Book a flight', 1, 2, null, 1, 2, 100, '["call_seat_1"]', ?, ?)`).run(owner, id, stateText.length, stateText)
    const insert = old.prepare('insert into chat_entries values (?, ?, 0, ?, ?)')
    insert.run(owner, id, 'input', JSON.stringify({ text: 'Book a flight' }))
    insert.run(owner, id, 'event', JSON.stringify({ type: 'text', content: 'Which seat?' }))
    insert.run(owner, id, 'event', JSON.stringify({ type: 'conversation_state', messages: [] }))
  } finally {
    old.close()
  }
}
