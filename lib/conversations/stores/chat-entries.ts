import type { ChatEvent } from '../../protocol/events'
import type { Message } from '../../protocol/messages'
import type { ChatTurn, TurnInput } from '../chat'
import { chatTooLarge } from '../errors'
import type { ConversationLimits } from '../limits'

/*
 * How the stores keep a chat's turns: one entry per turn input and per event, each JSON text,
 * and the conversation state once. Shared by the stores, so that they count sizes alike.
 */

/** One entry of a chat's turns, as stored. */
export type ChatEntry = { turn: number; input: TurnInput } | { turn: number; event: ChatEvent }

/** What an append writes: each event as stored JSON, their bytes, and the conversation state they carry (the last one), if any. */
export interface EncodedEvents {
  texts: string[]
  bytes: number
  state?: { text: string; bytes: number }
}

/** `events` as stored: a `conversation_state` keeps its place with `messages: []`, its messages go to the chat's state. */
export function encodeEvents(events: readonly ChatEvent[]): EncodedEvents {
  let state: EncodedEvents['state']
  const texts = events.map((event) => {
    if (event.type !== 'conversation_state') return JSON.stringify(event)
    const text = JSON.stringify(event.messages)
    state = { text, bytes: byteLength(text) }
    return JSON.stringify({ type: 'conversation_state', messages: [] })
  })
  return { texts, bytes: texts.reduce((sum, text) => sum + byteLength(text), 0), state }
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
    turn.events.push(entry.event)
    if (entry.event.type === 'conversation_state') last = entry.event
  }
  if (last && state) last.messages = state
  // A turn whose input entry is missing cannot be (inputs are written first); a hole is skipped, not shown as `undefined`.
  return turns.filter((turn) => turn !== undefined)
}

/** A chat's turns as entries to store (an import), with the conversation state its last `conversation_state` carries. */
export function entriesOf(turns: readonly ChatTurn[]): { entries: Array<{ turn: number; kind: 'input' | 'event'; text: string }>; size: ChatSize } {
  const entries: Array<{ turn: number; kind: 'input' | 'event'; text: string }> = []
  const size: ChatSize = { events: 0, bytes: 0, stateBytes: 0 }
  turns.forEach((turn, index) => {
    const input = JSON.stringify(turn.input)
    entries.push({ turn: index, kind: 'input', text: input })
    size.bytes += byteLength(input)
    const encoded = encodeEvents(turn.events)
    for (const text of encoded.texts) entries.push({ turn: index, kind: 'event', text })
    size.events += turn.events.length
    size.bytes += encoded.bytes
  })
  return { entries, size }
}

/** Reads a stored entry back. */
export function decodeEntry(turn: number, kind: string, text: string): ChatEntry {
  return kind === 'input' ? { turn, input: JSON.parse(text) as TurnInput } : { turn, event: JSON.parse(text) as ChatEvent }
}
