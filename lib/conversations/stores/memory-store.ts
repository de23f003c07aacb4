import type { ChatEvent } from '../../protocol/events'
import type { ChatSummary } from '../chat'
import type { ConversationStore } from '../conversation-store'
import { tooManyChats } from '../errors'
import type { ConversationLimits } from '../limits'
import { waitingCalls } from '../waiting'
import { assembleTurns, byteLength, decodeEntry, encodeEvents, entriesOf, refuseOverSize, type ChatSize, type StoredEntry } from './chat-entries'

interface MemoryChat {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  purgeAt?: number
  waitingCalls: string[]
  turns: number
  /** Entries as JSON text, as the other stores keep them: what `get` returns is never the store's own object. */
  entries: StoredEntry[]
  state?: string
  size: ChatSize
}

/**
 * Chats in this process's memory, lost on restart: for tests and `SESSION_STORE=memory`
 * benchmarks. `list` sorts the owner's chats on each call.
 */
export function createMemoryConversationStore(): ConversationStore {
  const owners = new Map<string, Map<string, MemoryChat>>()
  const chatsOf = (owner: string) => owners.get(owner) ?? owners.set(owner, new Map()).get(owner)!
  const shown = (owner: string) => [...(owners.get(owner)?.values() ?? [])].filter((chat) => chat.purgeAt === undefined)
  const live = (owner: string, id: string) => {
    const chat = owners.get(owner)?.get(id)
    return chat && chat.purgeAt === undefined ? chat : undefined
  }
  const summaryOf = (chat: MemoryChat): ChatSummary => ({
    id: chat.id,
    title: chat.title,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    waitingCalls: [...chat.waitingCalls],
  })

  const newChat = (id: string, at: number): MemoryChat => ({
    id,
    title: '',
    createdAt: at,
    updatedAt: at,
    waitingCalls: [],
    turns: 0,
    entries: [],
    size: { events: 0, bytes: 0, stateBytes: 0 },
  })

  /** Stores a batch of turn `turn`, or throws `chatTooLarge` storing none of it. */
  const appendChecked = (chat: MemoryChat, turn: number, events: readonly ChatEvent[], json: readonly string[] | undefined, at: number, limits: ConversationLimits) => {
    const encoded = encodeEvents(events, json)
    refuseOverSize(limits, chat.size, { events: events.length, bytes: encoded.bytes, stateBytes: encoded.state?.bytes })
    chat.entries.push({ turn, kind: 'events', text: encoded.text })
    chat.size.events += events.length
    chat.size.bytes += encoded.bytes
    if (encoded.state) {
      chat.state = encoded.state.text
      chat.size.stateBytes = encoded.state.bytes
    }
    chat.waitingCalls = waitingCalls(chat.waitingCalls, events)
    chat.updatedAt = at
  }

  return {
    kind: 'memory',

    *moveChats(from, to, { limits }) {
      if (from === to) return 0
      const target = chatsOf(to)
      let room = limits.maxChats - shown(to).length
      let moved = 0
      const newestFirst = shown(from).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
      for (const chat of newestFirst) {
        if (room <= 0) break
        if (!target.has(chat.id)) {
          target.set(chat.id, chat)
          room--
          moved++
        }
        owners.get(from)!.delete(chat.id)
      }
      return moved
    },

    *create(owner, { chat, limits }) {
      if (shown(owner).length >= limits.maxChats) throw tooManyChats(limits.maxChats)
      const { entries, size } = entriesOf(chat.turns)
      const state = chat.conversationState && JSON.stringify(chat.conversationState)
      chatsOf(owner).set(chat.id, {
        id: chat.id,
        title: chat.title,
        createdAt: chat.createdAt,
        updatedAt: chat.updatedAt,
        waitingCalls: waitingCalls([], chat.turns.flatMap((turn) => turn.events)),
        turns: chat.turns.length,
        entries,
        state,
        size: { ...size, stateBytes: state ? byteLength(state) : 0 },
      })
    },

    *list(owner, { limit, after }) {
      return shown(owner)
        .filter((chat) => !after || chat.updatedAt < after.updatedAt || (chat.updatedAt === after.updatedAt && chat.id < after.id))
        .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .slice(0, limit)
        .map(summaryOf)
    },

    *get(owner, id) {
      const chat = live(owner, id)
      if (!chat) return undefined
      const state = chat.state === undefined ? undefined : JSON.parse(chat.state)
      const turns = assembleTurns(
        chat.entries.map((entry) => decodeEntry(entry.turn, entry.kind, entry.text)),
        state,
      )
      return { ...summaryOf(chat), turns, ...(state ? { conversationState: state } : {}) }
    },

    *summary(owner, id) {
      const chat = live(owner, id)
      return chat && summaryOf(chat)
    },

    *startTurn(owner, id, { input, title, at, limits, create, events = [], json, check }) {
      if (create && chatsOf(owner).has(id)) return undefined
      if (create && shown(owner).length >= limits.maxChats) throw tooManyChats(limits.maxChats)
      const chat = create ? newChat(id, at) : live(owner, id)
      if (!chat) return undefined
      const text = JSON.stringify(input)
      // A turn needs room for at least one event: a full chat is refused before anything streams.
      refuseOverSize(limits, chat.size, { events: 1, bytes: byteLength(text) })
      if (check) return chat.turns
      if (create) chatsOf(owner).set(id, chat)
      chat.entries.push({ turn: chat.turns, kind: 'input', text })
      chat.size.bytes += byteLength(text)
      if (title !== undefined && chat.title === '') chat.title = title
      chat.updatedAt = at
      const turn = chat.turns++
      // As an append right after: a batch the limits refuse is not stored, the input is.
      if (events.length > 0) appendChecked(chat, turn, events, json, at, limits)
      return turn
    },

    *appendEvents(owner, id, { turn, events, json, at, limits }) {
      const chat = owners.get(owner)?.get(id)
      if (!chat || turn < 0 || turn >= chat.turns) return false
      appendChecked(chat, turn, events, json, at, limits)
      return true
    },

    *rename(owner, id, { title, at }) {
      const chat = live(owner, id)
      if (!chat) return false
      chat.title = title
      chat.updatedAt = at
      return true
    },

    *delete(owner, id, { purgeAt }) {
      const chat = live(owner, id)
      if (!chat) return false
      chat.purgeAt = purgeAt
      return true
    },

    *restore(owner, id, { at, limits }) {
      const chat = owners.get(owner)?.get(id)
      if (!chat || (chat.purgeAt !== undefined && chat.purgeAt <= at)) return false
      if (chat.purgeAt === undefined) return true
      if (shown(owner).length >= limits.maxChats) throw tooManyChats(limits.maxChats)
      chat.purgeAt = undefined
      return true
    },

    *sweep(now) {
      let next: number | undefined
      for (const [owner, chats] of owners) {
        for (const [id, chat] of chats) {
          if (chat.purgeAt === undefined) continue
          if (chat.purgeAt <= now) chats.delete(id)
          else next = Math.min(next ?? Infinity, chat.purgeAt)
        }
        if (chats.size === 0) owners.delete(owner)
      }
      return next
    },
  }
}
