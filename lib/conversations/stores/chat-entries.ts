import type { ChatEvent } from '../../protocol/events'
import { readKeptEvent } from '../../protocol/kept-question'
import type { Message } from '../../protocol/messages'
import type { ChatTurn, TurnInput } from '../chat'
import { chatTooLarge } from '../errors'
import type { ConversationLimits } from '../limits'

/*
 * How the stores keep a chat's turns: one entry per turn input and one per batch of events (what
 * one append stored: a JSON array), and the conversation state once. One entry per batch, not per
 * event: an append is one row or list element to write, whatever the batch holds (a turn of a
 * booking streams 4 to 20 events in one or two batches). Shared by the stores, so that they count
 * sizes alike.
 */

/** How an entry's text is read: a turn's input, a batch of events (a JSON array), or one event (as entries were written before batches). */
export type EntryKind = 'input' | 'events' | 'event'

/** An entry as the stores keep it. */
export interface StoredEntry {
  turn: number
  kind: EntryKind
  text: string
}

/** One entry of a chat's turns, read back. */
export type ChatEntry = { turn: number; input: TurnInput } | { turn: number; events: ChatEvent[] }

/** What an append writes: the batch as one stored JSON text, its bytes, and the conversation state it carries (the last one), if any. */
export interface EncodedEvents {
  text: string
  bytes: number
  state?: { text: string; bytes: number }
}

/** A `conversation_state` as stored among its turn's events: its messages are the chat's state, kept once. */
const KEPT_STATE_EVENT = JSON.stringify({ type: 'conversation_state', messages: [] })
/** How `JSON.stringify` begins a `conversation_state` event of these two fields alone: its messages follow, then `}`. */
const STATE_EVENT_START = '{"type":"conversation_state","messages":'

/**
 * `events` as stored: a `conversation_state` keeps its place with `messages: []`, its messages go
 * to the chat's state. With `json`, each event's JSON as the stream wrote it to the browser
 * (`JSON.stringify(event)`, the same text): kept as it is, not encoded a second time (a booking's
 * events are 15 KB of JSON), and a state's messages are its part of that text.
 */
export function encodeEvents(events: readonly ChatEvent[], json?: readonly string[]): EncodedEvents {
  let state: EncodedEvents['state']
  const texts = events.map((event, index) => {
    const written = json?.[index]
    if (event.type !== 'conversation_state') return written ?? JSON.stringify(event)
    const text = written !== undefined && Object.keys(event).length === 2 && written.startsWith(STATE_EVENT_START) ? written.slice(STATE_EVENT_START.length, -1) : JSON.stringify(event.messages)
    state = { text, bytes: byteLength(text) }
    return KEPT_STATE_EVENT
  })
  const text = `[${texts.join(',')}]`
  return { text, bytes: byteLength(text), state }
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** What a chat holds, as the limits count it. */
export interface ChatSize {
  events: number
  /** Bytes of the entries (inputs and events). */
  bytes: number
  /** Bytes of the conversation state. */
  stateBytes: number
}

/** Throws `chatTooLarge` when a chat of `size` cannot take `added` events of `addedBytes` with a state of `stateBytes` (the current one's if undefined). */
export function refuseOverSize(limits: ConversationLimits, size: ChatSize, added: { events: number; bytes: number; stateBytes?: number }): void {
  if (size.events + added.events > limits.maxEvents) throw chatTooLarge('events', limits.maxEvents)
  if (size.bytes + added.bytes + (added.stateBytes ?? size.stateBytes) > limits.maxBytes) throw chatTooLarge('bytes', limits.maxBytes)
}

/** The turns from their entries in order, the last `conversation_state` given `state`'s messages. */
export function assembleTurns(entries: Iterable<ChatEntry>, state: Message[] | undefined): ChatTurn[] {
  const turns: ChatTurn[] = []
  let last: { messages: Message[] } | undefined
  for (const entry of entries) {
    if ('input' in entry) {
      turns[entry.turn] = { input: entry.input, events: [] }
      continue
    }
    const turn = turns[entry.turn]
    if (!turn) continue
    for (const event of entry.events) {
      turn.events.push(event)
      if (event.type === 'conversation_state') last = event
    }
  }
  if (last && state) last.messages = state
  // A turn whose input entry is missing cannot be (inputs are written first); a hole is skipped, not shown as `undefined`.
  return turns.filter((turn) => turn !== undefined)
}

/** A chat's turns as entries to store (an import), with the conversation state its last `conversation_state` carries. */
export function entriesOf(turns: readonly ChatTurn[]): { entries: StoredEntry[]; size: ChatSize } {
  const entries: StoredEntry[] = []
  const size: ChatSize = { events: 0, bytes: 0, stateBytes: 0 }
  turns.forEach((turn, index) => {
    const input = JSON.stringify(turn.input)
    entries.push({ turn: index, kind: 'input', text: input })
    size.bytes += byteLength(input)
    if (turn.events.length === 0) return
    const encoded = encodeEvents(turn.events)
    entries.push({ turn: index, kind: 'events', text: encoded.text })
    size.events += turn.events.length
    size.bytes += encoded.bytes
  })
  return { entries, size }
}

/** Reads a stored entry back. */
export function decodeEntry(turn: number, kind: EntryKind, text: string): ChatEntry {
  if (kind === 'input') return { turn, input: JSON.parse(text) as TurnInput }
  const parsed = JSON.parse(text) as ChatEvent[] | ChatEvent
  // A question kept before its context was a field of its own is read into today's shape, once, here.
  const events = kind === 'events' ? (parsed as ChatEvent[]) : [parsed as ChatEvent]
  return { turn, events: events.map(readKeptEvent) }
}
