import { resource, sleep, spawn, withResolvers, type Operation } from 'effection'
import type { ChatEvent } from '../protocol/events'
import type { Chat, ChatSummary, TurnInput } from './chat'
import type { ChatExport } from './chat-export'
import { newChatId } from '../protocol/chat-id'
import type { ConversationStore, TurnMemo } from './conversation-store'
import { chatExists, chatNotFound } from './errors'
import { DEFAULT_CONVERSATION_LIMITS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, UNDO_MS, type ConversationLimits } from './limits'
import { decodeListCursor, encodeListCursor } from './list-cursor'
import { byteLength, entriesOf, refuseOverSize } from './stores/chat-entries'
import { titleFrom } from './title'
import { waitingCalls } from './waiting'

/** A page of the list: `next` is the cursor of the following page, absent on the last. */
export interface ChatPage {
  chats: ChatSummary[]
  next?: string
}

/**
 * The chats kept on the server, for the chats API and the chat engine: each call names the
 * browser identity (`owner`) it acts for, and never finds another identity's chat.
 */
export interface Conversations {
  /** Where they are kept: 'memory', 'embedded' or 'redis'. */
  readonly kind: string
  /** The owner's chats, newest first, `limit` (default 50, at most 200) at a time from `cursor`. */
  list(owner: string, options?: { cursor?: string; limit?: number }): Operation<ChatPage>
  /** A new empty chat (untitled until its first message). Throws `tooManyChats`. */
  create(owner: string): Operation<ChatSummary>
  /** A chat from an export (validated by the caller, `chatExportSchema`), as a new chat of `owner`. Throws `tooManyChats`, `chatTooLarge`. */
  import(owner: string, exported: ChatExport): Operation<ChatSummary>
  /** The chat, or undefined: unknown, deleted, or another owner's. */
  get(owner: string, id: string): Operation<Chat | undefined>
  /** The chat's summary (the calls it leaves waiting among it), without its turns: what a page following it needs to know. Undefined as `get`. */
  summary(owner: string, id: string): Operation<ChatSummary | undefined>
  /**
   * Starts a turn of the chat with what the browser sent, before the engine streams anything,
   * and names the chat after its first message. The turn's index, for `appendEvents`.
   * Throws `chatNotFound`, or `chatTooLarge` when the chat is full.
   *
   * With `create`, the turn makes the chat `id` (a new id, `isChatId`), in the same write: the
   * browser's first message of a new chat costs no request of its own. Throws `chatExists` when
   * the owner has a chat of that id, `tooManyChats`.
   *
   * With `events`, the turn's first batch is stored in that same write (see `appendEvents`).
   * With `json` (each of `events` as JSON, as the stream wrote it: `JSON.stringify(event)`),
   * the store keeps that text instead of encoding the events again.
   * With `check`, nothing is written: the same answer and refusals as the write would give now.
   * With `memo` (one per turn, the same for its check, its start and its appends), the store
   * may carry what one call read to the next instead of reading it again.
   */
  startTurn(
    owner: string,
    id: string,
    input: TurnInput,
    options?: { create?: boolean; events?: readonly ChatEvent[]; json?: readonly string[]; check?: boolean; memo?: TurnMemo },
  ): Operation<number>
  /**
   * Appends events of turn `turn` as they stream, in one small write per call.
   *
   * Invariant: the engine calls it with each batch of events before (or as) it writes them to
   * the browser — once per turn of the event loop — so every event the browser has seen is in
   * the store (a `kill -9` loses at most what the browser had not yet received). Throws
   * `chatNotFound` when the chat is gone (purged), `chatTooLarge` when the events would pass its limits.
   * With `json`, each event's JSON as the stream wrote it, stored as it is; with `memo`, as `startTurn`'s.
   */
  appendEvents(owner: string, id: string, turn: number, events: readonly ChatEvent[], options?: { json?: readonly string[]; memo?: TurnMemo }): Operation<void>
  /** Renames the chat (the title validated by the caller). Throws `chatNotFound`. */
  rename(owner: string, id: string, title: string): Operation<void>
  /** Hides the chat; restorable until the time it returns (epoch ms), then purged. Throws `chatNotFound`. */
  delete(owner: string, id: string): Operation<{ restorableUntil: number }>
  /** Shows a deleted chat again, within its undo time. Throws `chatNotFound` after it (or for a chat never deleted by this owner), `tooManyChats`. */
  restore(owner: string, id: string): Operation<void>
  /** Moves `from`'s chats to `to` (`ConversationStore.moveChats`, under the app's limits); how many moved. */
  moveChats(from: string, to: string): Operation<number>
}

export interface ConversationsOptions {
  store: ConversationStore
  limits?: ConversationLimits
  /** The clock (epoch ms): tests move it to pass the undo time. */
  now?: () => number
  /** How long a deleted chat can be restored (`UNDO_MS`, 30 s). */
  undoMs?: number
}

/**
 * The chats, over `store`, for as long as the current scope: purging deleted chats once their
 * undo time is over is one task that sleeps until the next is due (the store says when), and,
 * when none is, waits for the next delete — no polling.
 *
 * @example
 * const conversations = yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
 * const chat = yield* conversations.create(clientId)
 */
export function useConversations({ store, limits = DEFAULT_CONVERSATION_LIMITS, now = Date.now, undoMs = UNDO_MS }: ConversationsOptions): Operation<Conversations> {
  return resource(function* (provide) {
    let wakePurge: (() => void) | undefined
    yield* spawn(function* purgeDeleted() {
      while (true) {
        const next = yield* store.sweep(now())
        if (next === undefined) {
          const deleted = withResolvers<void>('a chat to be deleted')
          wakePurge = deleted.resolve
          yield* deleted.operation
        } else {
          yield* sleep(Math.max(0, next - now()))
        }
      }
    })

    yield* provide({
      kind: store.kind,

      *list(owner, { cursor, limit = DEFAULT_PAGE_SIZE } = {}) {
        const size = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(limit)))
        const chats = yield* store.list(owner, { limit: size + 1, after: cursor === undefined ? undefined : decodeListCursor(cursor) })
        if (chats.length <= size) return { chats }
        const page = chats.slice(0, size)
        const last = page[page.length - 1]!
        return { chats: page, next: encodeListCursor(last) }
      },

      *create(owner) {
        const at = now()
        const chat = { id: newChatId(), title: '', createdAt: at, updatedAt: at, turns: [] }
        yield* store.create(owner, { chat, limits })
        return { id: chat.id, title: chat.title, createdAt: at, updatedAt: at, waitingCalls: [] }
      },

      *import(owner, exported) {
        const { size } = entriesOf(exported.turns)
        // An export made by hand may carry the state only in its last `conversation_state`.
        const state = exported.conversationState ?? lastStateOf(exported.turns)
        refuseOverSize(limits, { events: 0, bytes: 0, stateBytes: 0 }, { ...size, stateBytes: state ? byteLength(JSON.stringify(state)) : 0 })
        const at = now()
        const chat = { id: newChatId(), title: exported.title, createdAt: exported.createdAt, updatedAt: at, turns: exported.turns, conversationState: state }
        yield* store.create(owner, { chat, limits })
        const waiting = waitingCalls([], exported.turns.flatMap((turn) => turn.events))
        return { id: chat.id, title: chat.title, createdAt: chat.createdAt, updatedAt: at, waitingCalls: waiting }
      },

      *get(owner, id) {
        return yield* store.get(owner, id)
      },

      *summary(owner, id) {
        return yield* store.summary(owner, id)
      },

      *startTurn(owner, id, input, { create = false, events, json, check, memo } = {}) {
        const title = input.text === undefined ? undefined : titleFrom(input.text) || undefined
        const turn = yield* store.startTurn(owner, id, { input, title, at: now(), limits, create, events, json, check, memo })
        if (turn === undefined) throw create ? chatExists() : chatNotFound()
        return turn
      },

      *appendEvents(owner, id, turn, events, { json, memo } = {}) {
        if (events.length === 0) return
        if (!(yield* store.appendEvents(owner, id, { turn, events, json, at: now(), limits, memo }))) throw chatNotFound()
      },

      *rename(owner, id, title) {
        if (!(yield* store.rename(owner, id, { title, at: now() }))) throw chatNotFound()
      },

      *moveChats(from, to) {
        return yield* store.moveChats(from, to, { limits })
      },

      *delete(owner, id) {
        const restorableUntil = now() + undoMs
        if (!(yield* store.delete(owner, id, { at: now(), purgeAt: restorableUntil }))) throw chatNotFound()
        wakePurge?.()
        wakePurge = undefined
        return { restorableUntil }
      },

      *restore(owner, id) {
        if (!(yield* store.restore(owner, id, { at: now(), limits }))) throw chatNotFound()
      },
    })
  })
}

function lastStateOf(turns: ChatExport['turns']) {
  const states = turns.flatMap((turn) => turn.events).filter((event) => event.type === 'conversation_state')
  const last = states[states.length - 1]
  return last && last.messages.length > 0 ? last.messages : undefined
}
