import { afterEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import type { ChatEvent, PluginElicitRequestEvent } from '../protocol/events'
import { chatHistoryOf, createMemoryConversationStore, useConversations, type Conversations, type ConversationLimits } from '../conversations'
import { openInScope, type InScope } from '@/lib/testing/in-scope'
import { newChatId } from '../protocol/chat-id'
import { createChatServer, type ChatServer } from './chat-server'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from './testing/chat-test-client'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** A chat server keeping its turns in chats in memory, and a browser of it. */
async function app({ limits, history = true, delayMs = 0 }: { limits?: ConversationLimits; history?: boolean; delayMs?: number } = {}) {
  const chats: InScope<Conversations> = await openInScope(() => useConversations({ store: createMemoryConversationStore(), limits }))
  closing.push(chats.destroy)
  const chat: ChatServer = await createChatServer({
    model: createOfflineModel({ delayMs, skills: [bookTrainOffline] }),
    tools: [bookTrainTool],
    history: history ? chatHistoryOf(chats.value) : undefined,
  })
  closing.push(() => chat.close())
  const browser = createChatTestClient({ chat })
  return { chat, chats, browser, get: (owner: string, id: string) => chats.run(() => chats.value.get(owner, id)) }
}

/** A browser with an identity (its cookie) and a new chat of its own, which it names in its requests. */
async function withChat(browser: ChatTestClient, chats: InScope<Conversations>) {
  // The first request gets the browser its identity (a refusal sets the cookie too).
  await browser.post({ messages: [] })
  const owner = browser.clientId!
  const { id } = await chats.run(() => chats.value.create(owner))
  browser.chatId = id
  return { owner, id }
}

const contextOf = (request: PluginElicitRequestEvent) => request.context
const firstTrain = (request: PluginElicitRequestEvent) => (contextOf(request).trains as Train[])[0]!
const freeSeat = (request: PluginElicitRequestEvent) => freeSeats(contextOf(request).seatMap as SeatMap)[0]!

/** What the store keeps of a turn's events: each earlier `conversation_state` without its messages (docs/conversations.md). */
const asKept = (events: ChatEvent[], last: boolean) =>
  events.map((event) => (event.type === 'conversation_state' && !last ? { ...event, messages: [] } : event))

describe('a turn that names a chat (chatId)', () => {
  it('keeps every turn of a booking — the input and every event the browser received, in order', async () => {
    const { chats, browser, get } = await app()
    const { owner, id } = await withChat(browser, chats)

    const asked = await browser.say('Book a train from Paris to Lyon')
    const [pickTrain] = elicitRequests(asked.events)
    const seatTurn = await browser.answer([{ request: pickTrain!, result: { action: 'accept', content: { trainId: firstTrain(pickTrain!).id } } }])
    const [pickSeat] = elicitRequests(seatTurn.events)
    const done = await browser.answer([{ request: pickSeat!, result: { action: 'accept', content: freeSeat(pickSeat!) } }])
    expect(JSON.parse(eventsOf(done.events, 'tool_result')[0]!.content)).toMatchObject({ status: 'confirmed' })

    const chat = (await get(owner, id))!
    expect(chat.title).toBe('Book a train from Paris to Lyon')
    expect(chat.turns.map((turn) => turn.input)).toEqual([
      { text: 'Book a train from Paris to Lyon' },
      { pluginElicitResponses: [expect.objectContaining({ sessionId: pickTrain!.sessionId, elicitId: pickTrain!.elicitId })] },
      { pluginElicitResponses: [expect.objectContaining({ sessionId: pickSeat!.sessionId, elicitId: pickSeat!.elicitId })] },
    ])
    expect(chat.turns.map((turn) => turn.events)).toEqual([asKept(asked.events, false), asKept(seatTurn.events, false), asKept(done.events, true)])
    expect(chat.conversationState).toEqual(browser.messages)
    expect(chat.waitingCalls).toEqual([])
  })

  it('makes a new chat with its first turn (newChat), once: the same id again is refused with 409 before anything streams', async () => {
    const { chats, browser, get } = await app()
    await browser.post({ messages: [] })
    const owner = browser.clientId!
    const id = newChatId()
    const text = 'Book a train from Paris to Lyon'
    const asked = await browser.post({ messages: [{ role: 'user', content: text }], chatId: id, newChat: true })
    expect(elicitRequests(asked.events)).toHaveLength(1)
    expect(await get(owner, id)).toMatchObject({ title: text, waitingCalls: [elicitRequests(asked.events)[0]!.callId], turns: [{ input: { text }, events: asKept(asked.events, true) }] })

    const again = await browser.post({ messages: [{ role: 'user', content: 'Hello' }], chatId: id, newChat: true })
    expect(again).toMatchObject({ status: 409, events: [], error: { code: 'chat_exists' } })
    expect((await get(owner, id))!.turns).toHaveLength(1)
    expect((await chats.run(() => chats.value.list(owner))).chats).toHaveLength(1)
  })

  it('refuses newChat without a chat id the browser made, with 400, making nothing', async () => {
    const { chats, browser } = await app()
    await browser.post({ messages: [] })
    for (const body of [{ newChat: true }, { newChat: true, chatId: 'chat-1' }]) {
      expect(await browser.post({ messages: [{ role: 'user', content: 'Hello' }], ...body })).toMatchObject({ status: 400, error: { code: 'invalid_request' } })
    }
    expect((await chats.run(() => chats.value.list(browser.clientId!))).chats).toEqual([])
  })

  it('stores nothing for a request without chatId, as for any API client', async () => {
    const { chats, browser, get } = await app()
    const { owner, id } = await withChat(browser, chats)
    browser.chatId = undefined
    const turn = await browser.say('Book a train from Paris to Lyon')
    expect(elicitRequests(turn.events)).toHaveLength(1)
    expect((await get(owner, id))!.turns).toEqual([])
    expect((await chats.run(() => chats.value.list(owner))).chats).toHaveLength(1)
  })

  it("refuses with 404 chat_not_found, before streaming, a chat that is another browser's or does not exist — and stores nothing in it", async () => {
    const { chat, chats, browser, get } = await app()
    const { owner, id } = await withChat(browser, chats)

    const other = createChatTestClient({ chat })
    other.chatId = id
    const foreign = await other.say('Book a train from Paris to Lyon')
    expect(foreign).toMatchObject({ status: 404, events: [], error: { code: 'chat_not_found' } })
    expect((await get(owner, id))!.turns).toEqual([])

    browser.chatId = 'AAAAAAAAAAAAAAAAAAAAAA'
    expect(await browser.say('Hello')).toMatchObject({ status: 404, error: { code: 'chat_not_found' } })
  })

  it('refuses a chatId with 404 when the server keeps no chats', async () => {
    const { chats, browser } = await app({ history: false })
    await withChat(browser, chats)
    expect(await browser.say('Hello')).toMatchObject({ status: 404, error: { code: 'chat_not_found' } })
  })

  it('keeps a refused turn with its refusal, as the browser showed it, and the answer it refused is not lost', async () => {
    const { chats, browser, get } = await app()
    const { owner, id } = await withChat(browser, chats)
    const asked = await browser.say('Book a train from Paris to Lyon')
    const [pickTrain] = elicitRequests(asked.events)

    const refused = await browser.post({ chatId: id, messages: browser.messages, pluginElicitResponses: [{ sessionId: 'call_nope', callId: 'call_nope', elicitId: 'x', result: { action: 'cancel' } }] })
    expect(refused).toMatchObject({ status: 400, error: { code: 'unknown_tool_call' } })
    const chat = (await get(owner, id))!
    expect(chat.turns[1]!.events).toEqual([{ type: 'error', code: 'unknown_tool_call', message: refused.error!.message }])
    // The question still waits and can be answered.
    const next = await browser.answer([{ request: pickTrain!, result: { action: 'accept', content: { trainId: firstTrain(pickTrain!).id } } }])
    expect(elicitRequests(next.events)).toMatchObject([{ key: 'pickSeat' }])
  })

  it('ends a turn that reaches the chat size limit with a chat_too_large error, having kept every event it sent before', async () => {
    // Room for a few events, not for the whole turn; the model's words come a few milliseconds apart, each in a batch of its own.
    const { chats, browser, get } = await app({ limits: { maxChats: 10, maxEvents: 3, maxBytes: 1024 * 1024 }, delayMs: 2 })
    const { owner, id } = await withChat(browser, chats)

    const turn = await browser.say('Book a train from Paris to Lyon')
    expect(turn.status).toBe(200)
    const last = turn.events.at(-1)!
    expect(last).toMatchObject({ type: 'error', code: 'chat_too_large' })
    // Usually a few batches fit before the limit; however the batches fell, what was sent is what is kept.
    const sent = turn.events.slice(0, -1)
    expect(sent.length).toBeLessThanOrEqual(3)
    expect((await get(owner, id))!.turns[0]!.events).toEqual(sent)
  })
})
