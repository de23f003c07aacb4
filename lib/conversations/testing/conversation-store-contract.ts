import type { Operation } from 'effection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConversationStore } from '../conversation-store'
import { useConversations, type Conversations } from '../conversations'
import { isConversationError } from '../errors'
import { newChatId } from '@/lib/protocol/chat-id'
import type { ConversationLimits } from '../limits'
import { BOOKING_CALL, EARLIER_SEAT_QUESTION, FIRST_TURN, SEAT_ANSWER, SEAT_QUESTION, SECOND_TURN, conversation } from './chat-events'
import { openInScope, type InScope } from '@/lib/testing/in-scope'

export interface ConversationStoreContractOptions {
  /** The store forgets purged chats by itself (Redis), so `sweep` always returns undefined. */
  expiresItself: boolean
  /** Starts a fresh, empty store; it lives until the test ends. */
  setup(): Operation<ConversationStore>
}

const LIMITS: ConversationLimits = { maxChats: 3, maxEvents: 12, maxBytes: 64 * 1024 }
const UNDO_MS = 30_000

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (isConversationError(error)) return error.code
    throw error
  }
  throw new Error('expected a refusal')
}

/**
 * The cases every `ConversationStore` must pass, run through `useConversations` (what the routes
 * and the engine call) with a clock the test moves. Each case gets a fresh store.
 */
export function describeConversationStoreContract(name: string, { expiresItself, setup }: ConversationStoreContractOptions): void {
  describe(`${name} conversation store (contract)`, () => {
    let clock: number
    let opened: InScope<{ store: ConversationStore; chats: Conversations }>
    let chats: Conversations
    let store: ConversationStore
    const run = <T>(operation: () => Operation<T>) => opened.run(operation)
    const alice = 'alice-identity'
    const mallory = 'mallory-identity'

    beforeEach(async () => {
      // Near the real time: Redis expires what is deleted relative to now.
      clock = Date.now()
      opened = await openInScope(function* () {
        const store = yield* setup()
        return { store, chats: yield* useConversations({ store, limits: LIMITS, now: () => clock, undoMs: UNDO_MS }) }
      })
      ;({ chats, store } = opened.value)
    })
    afterEach(() => opened.destroy())

    /** A chat of alice's with the booking's first turn (waiting at the seat question). */
    async function waitingChat() {
      const { id } = await run(() => chats.create(alice))
      clock += 1
      const turn = await run(() => chats.startTurn(alice, id, { text: 'Book a flight from NYC to LAX' }))
      await run(() => chats.appendEvents(alice, id, turn, FIRST_TURN.slice(0, 3)))
      await run(() => chats.appendEvents(alice, id, turn, FIRST_TURN.slice(3)))
      return id
    }

    it('keeps a new chat, untitled and empty, in its owner’s list', async () => {
      const created = await run(() => chats.create(alice))
      expect(created.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(await run(() => chats.list(alice))).toEqual({ chats: [{ id: created.id, title: '', createdAt: clock, updatedAt: clock, waitingCalls: [] }] })
      expect(await run(() => chats.get(alice, created.id))).toEqual({ ...created, turns: [] })
    })

    it('gives back each turn as it was sent and streamed, titled by the first message, the last conversation state carried once', async () => {
      const id = await waitingChat()
      clock += 1
      const second = await run(() => chats.startTurn(alice, id, { pluginElicitResponses: [SEAT_ANSWER] }))
      expect(second).toBe(1)
      await run(() => chats.appendEvents(alice, id, second, SECOND_TURN))

      const chat = await run(() => chats.get(alice, id))
      const finalState = conversation('Book a flight from NYC to LAX', 'Let me book that flight.', 'Your ticket is TK-1234.')
      expect(chat).toMatchObject({ id, title: 'Book a flight from NYC to LAX', waitingCalls: [], conversationState: finalState })
      expect(chat!.turns).toEqual([
        { input: { text: 'Book a flight from NYC to LAX' }, events: FIRST_TURN.map((event) => (event.type === 'conversation_state' ? { ...event, messages: [] } : event)) },
        { input: { pluginElicitResponses: [SEAT_ANSWER] }, events: SECOND_TURN },
      ])
    })

    it('gives back a question kept before its context was a field of its own as it travels now', async () => {
      const { id } = await run(() => chats.create(alice))
      const turn = await run(() => chats.startTurn(alice, id, { text: 'Book a flight from NYC to LAX' }))
      await run(() => chats.appendEvents(alice, id, turn, [EARLIER_SEAT_QUESTION]))
      const chat = await run(() => chats.get(alice, id))
      expect(chat!.turns[0]!.events).toEqual([SEAT_QUESTION])
    })

    it('makes a new chat with its first turn, in its owner’s list at once, and only once', async () => {
      const id = newChatId()
      clock += 1
      expect(await run(() => chats.startTurn(alice, id, { text: 'Book a flight from NYC to LAX' }, { create: true }))).toBe(0)
      await run(() => chats.appendEvents(alice, id, 0, FIRST_TURN))
      expect((await run(() => chats.list(alice))).chats).toEqual([{ id, title: 'Book a flight from NYC to LAX', createdAt: clock, updatedAt: clock, waitingCalls: [BOOKING_CALL.id] }])
      expect((await run(() => chats.get(alice, id)))!.turns).toEqual([
        { input: { text: 'Book a flight from NYC to LAX' }, events: FIRST_TURN },
      ])
      // The same id again, even deleted, is refused; another owner's chat of that id is another chat.
      expect(await codeOf(run(() => chats.startTurn(alice, id, { text: 'again' }, { create: true })))).toBe('chat_exists')
      await run(() => chats.delete(alice, id))
      expect(await codeOf(run(() => chats.startTurn(alice, id, { text: 'again' }, { create: true })))).toBe('chat_exists')
      expect(await run(() => chats.startTurn(mallory, id, { text: 'mine' }, { create: true }))).toBe(0)
      expect((await run(() => chats.get(mallory, id)))!.turns).toEqual([{ input: { text: 'mine' }, events: [] }])
    })

    it('stores a turn’s input with its first batch, and a check writes nothing but refuses as the write would', async () => {
      const id = newChatId()
      clock += 1
      const input = { text: 'Book a flight from NYC to LAX' }
      expect(await run(() => chats.startTurn(alice, id, input, { create: true, check: true }))).toBe(0)
      expect(await run(() => chats.get(alice, id))).toBeUndefined()
      expect(await run(() => chats.startTurn(alice, id, input, { create: true, events: FIRST_TURN }))).toBe(0)
      expect((await run(() => chats.get(alice, id)))!.turns).toEqual([{ input, events: FIRST_TURN }])
      expect((await run(() => chats.list(alice))).chats).toEqual([expect.objectContaining({ id, title: input.text, waitingCalls: [BOOKING_CALL.id] })])
      expect(await codeOf(run(() => chats.startTurn(alice, id, input, { create: true, check: true })))).toBe('chat_exists')
      expect(await codeOf(run(() => chats.startTurn(mallory, id, { pluginElicitResponses: [SEAT_ANSWER] }, { check: true })))).toBe('chat_not_found')
      expect(await run(() => chats.startTurn(alice, id, { pluginElicitResponses: [SEAT_ANSWER] }, { check: true }))).toBe(1)
      expect(await run(() => chats.startTurn(alice, id, { pluginElicitResponses: [SEAT_ANSWER] }, { events: SECOND_TURN }))).toBe(1)
      expect((await run(() => chats.get(alice, id)))!.turns.map((turn) => turn.events.length)).toEqual([FIRST_TURN.length, SECOND_TURN.length])

      // A first batch past the chat's limits is not stored, as an append's would not be; the turn starts with its input alone.
      const full = newChatId()
      const tooMany = Array.from({ length: LIMITS.maxEvents + 1 }, (_, index) => ({ type: 'text' as const, content: `piece ${index}` }))
      expect(await codeOf(run(() => chats.startTurn(alice, full, input, { create: true, events: tooMany })))).toBe('chat_too_large')
      expect((await run(() => chats.get(alice, full)))!.turns).toEqual([{ input, events: [] }])
    })

    it('refuses a new chat by its first turn past the limit of chats per owner, making nothing', async () => {
      for (let index = 0; index < LIMITS.maxChats; index++) await run(() => chats.create(alice))
      const id = newChatId()
      expect(await codeOf(run(() => chats.startTurn(alice, id, { text: 'one more' }, { create: true })))).toBe('too_many_chats')
      expect(await run(() => chats.get(alice, id))).toBeUndefined()
    })

    it('titles a chat by its first message only', async () => {
      const { id } = await run(() => chats.create(alice))
      await run(() => chats.startTurn(alice, id, { text: '  What can you do?\n' }))
      await run(() => chats.startTurn(alice, id, { text: 'Something else' }))
      expect((await run(() => chats.get(alice, id)))!.title).toBe('What can you do?')
    })

    it('says which chats wait for an answer, from their events alone', async () => {
      const id = await waitingChat()
      expect((await run(() => chats.list(alice))).chats).toEqual([expect.objectContaining({ id, waitingCalls: [BOOKING_CALL.id] })])
      expect(await run(() => chats.get(alice, id))).toMatchObject({ waitingCalls: [BOOKING_CALL.id] })
      // Its summary alone (what a page following it reads) says the same, as the list does.
      expect(await run(() => chats.summary(alice, id))).toEqual((await run(() => chats.list(alice))).chats[0])

      const second = await run(() => chats.startTurn(alice, id, { pluginElicitResponses: [SEAT_ANSWER] }))
      // Answered but not yet done: the call still waits until its result streams.
      expect((await run(() => chats.list(alice))).chats[0]!.waitingCalls).toEqual([BOOKING_CALL.id])
      await run(() => chats.appendEvents(alice, id, second, SECOND_TURN.slice(0, 1)))
      expect((await run(() => chats.list(alice))).chats[0]!.waitingCalls).toEqual([])
    })

    it('lists newest first (the last written first), a page at a time, chats written in the same millisecond included', async () => {
      const big: ConversationLimits = { ...LIMITS, maxChats: 100 }
      const many = await openInScope(() => useConversations({ store, limits: big, now: () => clock }))
      try {
        const ids: string[] = []
        for (let index = 0; index < 7; index++) {
          // Pairs share a millisecond: the order within one is by id.
          if (index % 2 === 0) clock += 1
          ids.push((await many.run(() => many.value.create(alice))).id)
        }
        clock += 1
        await many.run(() => many.value.rename(alice, ids[0]!, 'Renamed'))

        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await many.run(() => many.value.list(alice, { cursor, limit: 3 }))
          expect(page.chats.length).toBeLessThanOrEqual(3)
          seen.push(...page.chats.map((chat) => chat.id))
          cursor = page.next
        } while (cursor)
        const expected = await many.run(() => store.list(alice, { limit: 100 }))
        expect(seen).toEqual(expected.map((chat) => chat.id))
        expect(seen[0]).toBe(ids[0])
        expect(new Set(seen)).toEqual(new Set(ids))
        const times = expected.map((chat) => chat.updatedAt)
        expect(times).toEqual([...times].sort((a, b) => b - a))
      } finally {
        await many.destroy()
      }
    })

    it('refuses a cursor it did not make', async () => {
      expect(await codeOf(run(() => chats.list(alice, { cursor: 'bm90IGEgY3Vyc29y' })))).toBe('invalid_request')
    })

    it('never shows, changes or deletes one owner’s chat for another', async () => {
      const id = await waitingChat()
      expect(await run(() => chats.list(mallory))).toEqual({ chats: [] })
      expect(await run(() => chats.get(mallory, id))).toBeUndefined()
      expect(await run(() => chats.summary(mallory, id))).toBeUndefined()
      expect(await codeOf(run(() => chats.startTurn(mallory, id, { text: 'hi' })))).toBe('chat_not_found')
      expect(await codeOf(run(() => chats.appendEvents(mallory, id, 0, [{ type: 'text', content: 'injected' }])))).toBe('chat_not_found')
      expect(await codeOf(run(() => chats.rename(mallory, id, 'Mine now')))).toBe('chat_not_found')
      expect(await codeOf(run(() => chats.delete(mallory, id)))).toBe('chat_not_found')
      expect(await codeOf(run(() => chats.restore(mallory, id)))).toBe('chat_not_found')

      const chat = await run(() => chats.get(alice, id))
      expect(chat).toMatchObject({ title: 'Book a flight from NYC to LAX' })
      expect(chat!.turns[0]!.events).toHaveLength(FIRST_TURN.length)
    })

    it('moves an owner’s chats whole to another (a browser’s to its account), exactly once, as many as fit', async () => {
      const account = 'account-identity'
      const waiting = await waitingChat()
      clock += 1
      const { id: other } = await run(() => chats.create(alice))
      clock += 1
      const { id: deleted } = await run(() => chats.create(alice))
      await run(() => chats.delete(alice, deleted))
      const before = await run(() => chats.get(alice, waiting))

      expect(await run(() => chats.moveChats(alice, account))).toBe(2)
      expect(await run(() => chats.get(account, waiting))).toEqual(before)
      expect((await run(() => chats.list(account))).chats.map((chat) => [chat.id, chat.waitingCalls.length > 0])).toEqual([
        [other, false],
        [waiting, true],
      ])
      // Gone from the browser, which keeps only what it deleted (forgotten as usual).
      expect(await run(() => chats.list(alice))).toEqual({ chats: [] })
      expect(await run(() => chats.get(alice, waiting))).toBeUndefined()
      // The chat goes on under the account.
      const turn = await run(() => chats.startTurn(account, waiting, { pluginElicitResponses: [SEAT_ANSWER] }))
      await run(() => chats.appendEvents(account, waiting, turn, SECOND_TURN))
      expect(await run(() => chats.get(account, waiting))).toMatchObject({ waitingCalls: [], turns: [expect.anything(), { input: { pluginElicitResponses: [SEAT_ANSWER] } }] })
      // A repeat moves nothing more.
      expect(await run(() => chats.moveChats(alice, account))).toBe(0)
      expect((await run(() => chats.list(account))).chats).toHaveLength(2)

      // Only as many as the account has room for (3 here), the newest first; the rest stay.
      for (let index = 0; index < 2; index++) {
        clock += 1
        await run(() => chats.create(mallory))
      }
      expect(await run(() => chats.moveChats(mallory, account))).toBe(1)
      expect((await run(() => chats.list(mallory))).chats).toHaveLength(1)
      expect((await run(() => chats.list(account))).chats).toHaveLength(3)
    })

    it('refuses a chat past the limit of chats per owner, and counts each owner apart', async () => {
      for (let index = 0; index < LIMITS.maxChats; index++) await run(() => chats.create(alice))
      expect(await codeOf(run(() => chats.create(alice)))).toBe('too_many_chats')
      await run(() => chats.create(mallory))
      // A deleted chat makes room at once, and cannot come back while it would pass the limit.
      const [first] = (await run(() => chats.list(alice))).chats
      await run(() => chats.delete(alice, first!.id))
      await run(() => chats.create(alice))
      expect(await codeOf(run(() => chats.restore(alice, first!.id)))).toBe('too_many_chats')
    })

    it('refuses events past a chat’s limit of events, storing none of the batch', async () => {
      const id = await waitingChat()
      const turn = await run(() => chats.startTurn(alice, id, { pluginElicitResponses: [SEAT_ANSWER] }))
      const room = LIMITS.maxEvents - FIRST_TURN.length
      const texts = Array.from({ length: room + 1 }, (_, index) => ({ type: 'text' as const, content: `piece ${index}` }))
      expect(await codeOf(run(() => chats.appendEvents(alice, id, turn, texts)))).toBe('chat_too_large')
      expect((await run(() => chats.get(alice, id)))!.turns[1]!.events).toEqual([])
      await run(() => chats.appendEvents(alice, id, turn, texts.slice(0, room)))
      expect((await run(() => chats.get(alice, id)))!.turns[1]!.events).toHaveLength(room)
      // Full: the next turn is refused before anything streams.
      expect(await codeOf(run(() => chats.startTurn(alice, id, { text: 'more' })))).toBe('chat_too_large')
    })

    it('refuses events past a chat’s limit of bytes', async () => {
      const { id } = await run(() => chats.create(alice))
      const turn = await run(() => chats.startTurn(alice, id, { text: 'Write a lot' }))
      const big = { type: 'text' as const, content: 'x'.repeat(LIMITS.maxBytes) }
      expect(await codeOf(run(() => chats.appendEvents(alice, id, turn, [big])))).toBe('chat_too_large')
      expect((await run(() => chats.get(alice, id)))!.turns[0]!.events).toEqual([])
    })

    it('hides a deleted chat at once, restores it within the undo time with what was appended meanwhile, and forgets it after', async () => {
      const id = await waitingChat()
      const { restorableUntil } = await run(() => chats.delete(alice, id))
      expect(restorableUntil).toBe(clock + UNDO_MS)
      expect(await run(() => chats.list(alice))).toEqual({ chats: [] })
      expect(await run(() => chats.get(alice, id))).toBeUndefined()
      expect(await run(() => chats.summary(alice, id))).toBeUndefined()
      expect(await codeOf(run(() => chats.rename(alice, id, 'x')))).toBe('chat_not_found')
      expect(await codeOf(run(() => chats.delete(alice, id)))).toBe('chat_not_found')
      // The turn streaming when it was deleted still writes: undo loses nothing.
      await run(() => chats.appendEvents(alice, id, 0, [{ type: 'text', content: 'late' }]))

      clock += UNDO_MS - 1
      await run(() => chats.restore(alice, id))
      const restored = await run(() => chats.get(alice, id))
      expect(restored!.turns[0]!.events.at(-1)).toEqual({ type: 'text', content: 'late' })
      expect((await run(() => chats.list(alice))).chats.map((chat) => chat.id)).toEqual([id])

      await run(() => chats.delete(alice, id))
      clock += UNDO_MS
      expect(await codeOf(run(() => chats.restore(alice, id)))).toBe('chat_not_found')
      expect(await run(() => chats.get(alice, id))).toBeUndefined()
    })

    it(expiresItself ? 'leaves purging to the store itself (sweep has nothing to do)' : 'purges deleted chats when their undo time is over, and says when the next is due', async () => {
      const id = await waitingChat()
      const kept = (await run(() => chats.create(alice))).id
      await run(() => chats.delete(alice, id))
      const due = clock + UNDO_MS
      if (expiresItself) {
        expect(await run(() => store.sweep(due))).toBeUndefined()
        return
      }
      expect(await run(() => store.sweep(clock))).toBe(due)
      expect(await run(() => store.sweep(due))).toBeUndefined()
      // Gone for good: not even a clock turned back brings it back.
      expect(await run(() => store.restore(alice, id, { at: clock, limits: LIMITS }))).toBe(false)
      expect(await run(() => store.get(alice, kept))).toBeDefined()
    })

    it('imports a chat as a new chat of whoever imports it, exactly as exported', async () => {
      const id = await waitingChat()
      const original = (await run(() => chats.get(alice, id)))!
      clock += 5
      const imported = await run(() =>
        chats.import(mallory, {
          format: 'elicit-chat',
          version: 1,
          title: original.title,
          createdAt: original.createdAt,
          updatedAt: original.updatedAt,
          turns: original.turns,
          conversationState: original.conversationState,
        }),
      )
      expect(imported).toEqual({ id: expect.any(String), title: original.title, createdAt: original.createdAt, updatedAt: clock, waitingCalls: [BOOKING_CALL.id] })
      expect(imported.id).not.toBe(id)
      const copy = await run(() => chats.get(mallory, imported.id))
      expect(copy).toEqual({ ...original, id: imported.id, updatedAt: clock })
      expect((await run(() => chats.list(mallory))).chats).toEqual([imported])
    })
  })
}
