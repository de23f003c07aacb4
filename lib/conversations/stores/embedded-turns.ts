import type Database from 'libsql'
import { immediateTransaction } from '../../storage/embedded-database'
import type { ChatEvent } from '../../protocol/events'
import type { ConversationStore, StartTurnOptions, TurnMemo } from '../conversation-store'
import { isConversationError, tooManyChats } from '../errors'
import type { ConversationLimits } from '../limits'
import { waitingCalls } from '../waiting'
import { byteLength, encodeEvents, refuseOverSize, type EntryKind } from './chat-entries'

/** What a turn's writes read of its chat's row (`chats`): its counts, the calls that wait, whether it is deleted. */
export interface ChatRow {
  turns: number
  events: number
  bytes: number
  waiting_calls: string
  state_bytes: number
  purge_at: number | null
}

/** What the turns share with the rest of the embedded store: its reads of `chats` and its writes of entries and states. */
export interface EmbeddedTurnDeps {
  rowOf(owner: string, id: string): ChatRow | undefined
  insertEntry(owner: string, id: string, turn: number, kind: EntryKind, text: string): void
  putState(owner: string, id: string, state: string): void
}

const EMPTY = { events: 0, bytes: 0, stateBytes: 0 }
/** A new chat's row before its first turn's input and batch are counted in. */
const NEW_ROW: ChatRow = { turns: 1, events: 0, bytes: 0, waiting_calls: '[]', state_bytes: 0, purge_at: null }

/**
 * The embedded store's turns: the check before a turn streams, its start (its input and first
 * batch, one transaction), its appends. The chat's row is read once a turn, by the check, and
 * carried in the turn's `memo` to its writes; each write plans the row after it from the row it
 * carries and writes it as a compare-and-set (`replaceRow`: only over the row as carried). A
 * write since (another turn, a rename does not count, another process) makes that match nothing,
 * and the write is planned again from the row read then, in the same transaction, as without a
 * memo. A turn whose chat nobody else writes meanwhile thus costs one read and, per write,
 * `BEGIN`, one update of the row, one insert of its entries (the state's upsert when a batch
 * carries one) and `COMMIT`.
 */
export function embeddedTurnWrites(db: Database.Database, { rowOf, insertEntry, putState }: EmbeddedTurnDeps) {
  const statements = {
    // The check of a new chat's first turn, in one read: whether the id is taken, and how many chats the owner keeps.
    newChat: db.prepare<[string, string]>(
      'select exists (select 1 from chats where owner = ?1 and id = ?2) as taken, (select count(*) from chats where owner = ?1 and purge_at is null) as count',
    ),
    // A turn's first write: its chat made by it, unless the id is taken or the owner keeps `maxChats` chats already.
    insertNew: db.prepare(
      `insert into chats (owner, id, title, created_at, updated_at, purge_at, turns, events, bytes, waiting_calls, state_bytes)
       select @owner, @id, @title, @at, @at, null, @turns, @events, @bytes, @waitingCalls, @stateBytes
       where (select count(*) from chats where owner = @owner and purge_at is null) < @maxChats
       on conflict (owner, id) do nothing`,
    ),
    // A turn's input and its first batch, in one statement.
    insertEntries: db.prepare<[string, string, number, string, string, string, number, string]>(
      "insert into chat_entries (owner, chat_id, turn, kind, data) values (?, ?, ?, 'input', ?), (?, ?, ?, 'events', ?)",
    ),
    // Sets the title only if the chat has none; a null `title` leaves it.
    replaceRow: db.prepare(
      `update chats set turns = @turns, events = @events, bytes = @bytes, waiting_calls = @waitingCalls, state_bytes = @stateBytes, updated_at = @at,
         title = case when title = '' and @title is not null then @title else title end
       where owner = @owner and id = @id and turns = @seenTurns and events = @seenEvents and bytes = @seenBytes
         and waiting_calls = @seenWaitingCalls and state_bytes = @seenStateBytes and purge_at is @seenPurgeAt`,
    ),
  }

  /** Writes `next` over the chat's row if it is still `seen` (in every column a turn's writes read): false when a write since changed it, or it is gone. */
  const replaceRow = (owner: string, id: string, seen: ChatRow, next: ChatRow, at: number, title?: string) =>
    statements.replaceRow.run({
      owner,
      id,
      ...columnsOf(next),
      at,
      title: title ?? null,
      seenTurns: seen.turns,
      seenEvents: seen.events,
      seenBytes: seen.bytes,
      seenWaitingCalls: seen.waiting_calls,
      seenStateBytes: seen.state_bytes,
      seenPurgeAt: seen.purge_at,
    }).changes === 1

  /**
   * In a transaction: a write planned from the row the turn carries, done if the row is still
   * that one; otherwise (no memo, a write since, a refusal planned from what may be stale)
   * planned again from the row read now, whose refusals stand. What was planned, or undefined:
   * no such chat (or `plan` found none to write).
   */
  const writeRow = <P extends { next: ChatRow }>(owner: string, id: string, memo: TurnMemo | undefined, plan: (row: ChatRow) => P | undefined, at: number, title?: string) => {
    const carried = memo?.row as ChatRow | undefined
    if (carried) {
      const planned = plannedOrNot(() => plan(carried))
      if (planned && replaceRow(owner, id, carried, planned.next, at, title)) return planned
    }
    const row = rowOf(owner, id)
    const planned = row && plan(row)
    if (!row || !planned) return undefined
    replaceRow(owner, id, row, planned.next, at, title)
    return planned
  }

  /** A turn of the chat of `row` (none: a new chat, with `create`), within the limits: its index, its input as stored, the row once it has started. */
  const admitTurn = (row: ChatRow | undefined, { input, create, limits }: StartTurnOptions) => {
    if (create ? row : !row || row.purge_at !== null) return undefined
    const text = JSON.stringify(input)
    const bytes = byteLength(text)
    refuseOverSize(limits, row ? sizeOf(row) : EMPTY, { events: 1, bytes })
    const next: ChatRow = row ? { ...row, turns: row.turns + 1, bytes: row.bytes + bytes } : { ...NEW_ROW, bytes }
    return { text, turn: row ? row.turns : 0, next }
  }

  /** `events` appended to the chat of `row`: their entry and state as stored, and the row after. Throws `chatTooLarge`. */
  const appended = (row: ChatRow, events: readonly ChatEvent[], json: readonly string[] | undefined, limits: ConversationLimits) => {
    const encoded = encodeEvents(events, json)
    refuseOverSize(limits, sizeOf(row), { events: events.length, bytes: encoded.bytes, stateBytes: encoded.state?.bytes })
    const next: ChatRow = {
      ...row,
      events: row.events + events.length,
      bytes: row.bytes + encoded.bytes,
      waiting_calls: JSON.stringify(waitingCalls(JSON.parse(row.waiting_calls) as string[], events)),
      state_bytes: encoded.state?.bytes ?? row.state_bytes,
    }
    return { encoded, next }
  }

  const append = immediateTransaction(db, (owner: string, id: string, { turn, events, json, at, limits, memo }: Parameters<ConversationStore['appendEvents']>[2]) => {
    const written = writeRow(owner, id, memo, (row) => (turn >= 0 && turn < row.turns ? appended(row, events, json, limits) : undefined), at)
    if (!written) return false
    insertEntry(owner, id, turn, 'events', written.encoded.text)
    if (written.encoded.state) putState(owner, id, written.encoded.state.text)
    if (memo) memo.row = written.next
    return true
  })

  // One transaction for the turn's input and its first batch: a turn that streams at once costs one write, not two.
  // A batch refused by the limits is not written, the input is (as if appended after it): the refusal is thrown once committed.
  const startIn = immediateTransaction(db, (owner: string, id: string, options: StartTurnOptions) => {
    const { title, at, events, json, limits, memo } = options
    /** The input admitted, and the first batch with it unless the limits refuse that. */
    const plan = (row: ChatRow | undefined) => {
      const admitted = admitTurn(row, options)
      if (!admitted || !events || events.length === 0) return admitted && { ...admitted, batch: undefined }
      try {
        const batch = appended(admitted.next, events, json, limits)
        return { ...admitted, batch, next: batch.next }
      } catch (error) {
        if (isConversationError(error) && error.code === 'chat_too_large') return { ...admitted, batch: undefined, refused: error }
        throw error
      }
    }
    let written: ReturnType<typeof plan>
    if (options.create) {
      // A new chat: no row to read. The insert counts the owner's chats itself, and does nothing when the id is taken or
      // the owner has no room; then the id taken is answered before the count's refusal.
      written = plan(undefined)
      if (!written) return undefined
      if (statements.insertNew.run({ owner, id, title: title ?? '', at, ...columnsOf(written.next), maxChats: limits.maxChats }).changes === 0) {
        if (rowOf(owner, id)) return undefined
        throw tooManyChats(limits.maxChats)
      }
    } else {
      written = writeRow(owner, id, memo, plan, at, title)
      if (!written) return undefined
    }
    const { turn, text, batch } = written
    if (batch) statements.insertEntries.run(owner, id, turn, text, owner, id, turn, batch.encoded.text)
    else insertEntry(owner, id, turn, 'input', text)
    if (batch?.encoded.state) putState(owner, id, batch.encoded.state.text)
    if (memo) memo.row = written.next
    return { turn, refused: 'refused' in written ? written.refused : undefined }
  })

  return {
    /** The check before a turn streams (`startTurn` with `check`): a read, no transaction, no write lock; the row goes in `memo` for the turn's writes. */
    check(owner: string, id: string, options: StartTurnOptions): number | undefined {
      if (options.create) {
        const { taken, count } = statements.newChat.get(owner, id) as { taken: number; count: number }
        if (taken) return undefined
        if (count >= options.limits.maxChats) throw tooManyChats(options.limits.maxChats)
        return admitTurn(undefined, options)?.turn
      }
      const row = rowOf(owner, id)
      const admitted = admitTurn(row, options)
      if (admitted && row && options.memo) options.memo.row = row
      return admitted?.turn
    },
    /** `startTurn`'s write. */
    start(owner: string, id: string, options: StartTurnOptions): number | undefined {
      const started = startIn(owner, id, options)
      if (started?.refused) throw started.refused
      return started?.turn
    },
    /** `appendEvents`. */
    append,
  }
}

function sizeOf(row: ChatRow) {
  return { events: row.events, bytes: row.bytes, stateBytes: row.state_bytes }
}

function columnsOf(row: ChatRow) {
  return { turns: row.turns, events: row.events, bytes: row.bytes, waitingCalls: row.waiting_calls, stateBytes: row.state_bytes }
}

/** `plan()`, or undefined when it throws: a plan from a row that may be stale, whose refusal is made again, or not, from the row as it is. */
function plannedOrNot<P>(plan: () => P): P | undefined {
  try {
    return plan()
  } catch {
    return undefined
  }
}
