import type { Operation } from 'effection'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import type { Chat, ChatSummary, ChatTurn, TurnInput } from './chat'
import type { ConversationLimits } from './limits'

/** A chat to store as it is: new (no turns), or imported. */
export interface NewChat {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  turns: ChatTurn[]
  conversationState?: Message[]
}

/** What starting a turn needs: the turn's input, the title a first message gives, and whether the turn makes its chat. */
export interface StartTurnOptions {
  input: TurnInput
  title?: string
  at: number
  limits: ConversationLimits
  create?: boolean
  /** The turn's first batch of events, stored with its input (as `appendEvents` stores a batch: refused, the turn starts with its input alone). */
  events?: readonly ChatEvent[]
  /** Each of `events` as JSON, as the engine's stream wrote it (`JSON.stringify(event)`): stored as it is. */
  json?: readonly string[]
  /** Only checks that the turn could start now: the same answer and refusals, nothing written. */
  check?: boolean
  /** What this turn's earlier call read or wrote of the chat (see `TurnMemo`). */
  memo?: TurnMemo
}

/**
 * What a store read or wrote of a chat in one turn's call, handed to the turn's next call (its
 * check, its start, each append) so that the store need not read it again: the caller makes one
 * per turn, empty, and passes it along without looking in it. A store may ignore it. The
 * embedded store keeps the chat's row there, and writes over it only while the row is still
 * that one (another write since, from this process or another: it reads the row again).
 */
export interface TurnMemo {
  row?: unknown
}

/** Where the list resumes: after the chat with this `updatedAt` and `id` (the list's order is both, descending). */
export interface ListPosition {
  updatedAt: number
  id: string
}

/**
 * Where chats are kept, each under its owner (the browser identity) and id. Every call names
 * the owner, and a chat is found only under its own: another owner's chat is `undefined` or
 * `false`, exactly as one that never was.
 *
 * A chat is an index entry (title, times, sizes, the calls that wait, the last conversation
 * state) and its turns' entries (each turn's input, then its events, one entry each). `list`
 * reads index entries only, newest first, so its cost does not grow with what the chats hold.
 * Writes are small: an append writes its events and updates the index entry, never rewrites
 * the chat.
 *
 * A deleted chat is hidden at once (from `list`, `get`, `startTurn`, `rename`) and kept until
 * `purgeAt`, for `restore`; then the store forgets it (`sweep`, or Redis by itself).
 * Limits that depend on what is stored are checked in the same atomic step as the write.
 * A store that cannot be reached throws `ConversationStoreUnavailableError`.
 */
export interface ConversationStore {
  /** 'memory', 'embedded' or 'redis': for logs and the bench. */
  readonly kind: string
  /** Stores `chat`; throws `tooManyChats` when the owner keeps `limits.maxChats` chats already. Its size is the caller's to check. */
  create(owner: string, options: { chat: NewChat; limits: ConversationLimits }): Operation<void>
  /** At most `limit` of the owner's chats, newest first (by `updatedAt`, then `id`), after `after` when given. */
  list(owner: string, options: { limit: number; after?: ListPosition }): Operation<ChatSummary[]>
  get(owner: string, id: string): Operation<Chat | undefined>
  /** The chat's summary as `list` gives it (its title, times, the calls that wait), without reading its turns; undefined as `get`. */
  summary(owner: string, id: string): Operation<ChatSummary | undefined>
  /**
   * Starts the chat's next turn with what the browser sent, and sets the title to `title` if the
   * chat has none yet; the new turn's index (from 0), or undefined when there is no such chat.
   * Throws `chatTooLarge` when the chat is at its limits already.
   *
   * With `create`, the chat is new: it is made (created at `at`) with this turn as its first, in
   * the same atomic step, as `create` would make it (throws `tooManyChats`); undefined when the
   * owner has a chat of that id already, deleted or not. With `events`, the turn's first batch is
   * stored with it, in the same step on the embedded store; a batch past the chat's limits is
   * refused (`chatTooLarge`) as `appendEvents` refuses one, the turn started with its input alone.
   * With `check`, nothing is written: the answer is what the write would answer now.
   */
  startTurn(owner: string, id: string, options: StartTurnOptions): Operation<number | undefined>
  /**
   * Appends `events` to turn `turn` (one that `startTurn` started) in one small write. A
   * `conversation_state` among them becomes the chat's conversation state. False when there is
   * no such chat or turn; a deleted chat still takes them (restoring it loses nothing). Throws
   * `chatTooLarge`, storing none of them, when they would pass the chat's limits.
   */
  appendEvents(
    owner: string,
    id: string,
    options: { turn: number; events: readonly ChatEvent[]; json?: readonly string[]; at: number; limits: ConversationLimits; memo?: TurnMemo },
  ): Operation<boolean>
  rename(owner: string, id: string, options: { title: string; at: number }): Operation<boolean>
  /** Hides the chat and keeps it until `purgeAt` for `restore`; false when there is no such chat (or it is deleted already). */
  delete(owner: string, id: string, options: { at: number; purgeAt: number }): Operation<boolean>
  /**
   * Shows a deleted chat again if `at` is before its `purgeAt`; true when the chat is shown now
   * (restored, or never deleted). Throws `tooManyChats` when the owner is at `limits.maxChats`.
   */
  restore(owner: string, id: string, options: { at: number; limits: ConversationLimits }): Operation<boolean>
  /**
   * Moves `from`'s shown chats, whole, to `to` (a browser's chats to the account it signs in
   * to), newest first, as many as `to` has room for under `limits.maxChats`; the rest stay with
   * `from`. Idempotent: a chat `to` holds already is not moved twice (of two moves at once, or a
   * repeat after one was interrupted, each chat ends under `to` once). Deleted chats still in
   * their undo time stay with `from` and are forgotten as usual. How many moved.
   */
  moveChats(from: string, to: string, options: { limits: ConversationLimits }): Operation<number>
  /** Forgets deleted chats whose `purgeAt` is past; when the next is due, or undefined (none, or the store forgets by itself). */
  sweep(now: number): Operation<number | undefined>
}
