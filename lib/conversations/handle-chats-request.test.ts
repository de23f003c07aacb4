import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAdmission, createClientIdentity } from '../http'
import { CHAT_EXPORT_FORMAT, type ChatExport } from './chat-export'
import { useConversations, type Conversations } from './conversations'
import type { ChatsApp } from './handle-chats-request'
import type { ConversationLimits } from './limits'
import { createMemoryConversationStore } from './stores/memory-store'
import { EARLIER_SEAT_QUESTION, FIRST_TURN, SEAT_ANSWER, SEAT_QUESTION, SECOND_TURN } from './testing/chat-events'
import { chatsBrowser, type ChatsBrowser } from './testing/chats-browser'
import { openInScope, type InScope } from '@/lib/testing/in-scope'

const LIMITS: ConversationLimits = { maxChats: 4, maxEvents: 40, maxBytes: 32 * 1024 }
const UNDO_MS = 30_000
const identity = createClientIdentity({ secret: 'a-secret-for-the-chats-api-tests-only-0123456789' })

let clock: number
let opened: InScope<Conversations>
let app: ChatsApp
let alice: ChatsBrowser
let mallory: ChatsBrowser

beforeEach(async () => {
  clock = Date.now()
  opened = await openInScope(() => useConversations({ store: createMemoryConversationStore(), limits: LIMITS, now: () => clock, undoMs: UNDO_MS }))
  app = { conversations: opened.value, identity, limits: LIMITS, run: opened.run }
  alice = chatsBrowser(app)
  mallory = chatsBrowser(app)
})
afterEach(() => opened.destroy())

/** Alice makes a chat, and the engine writes the booking into it as it streams: a first turn waiting at the seat, then the answer and the ticket. */
async function bookedChat(): Promise<{ id: string; owner: string }> {
  const created = await alice.send({ action: 'create' }, { body: {} })
  expect(created.status).toBe(201)
  const { chat } = (await created.json()) as { chat: { id: string } }
  // The owner is the identity the cookie names: the engine hook is given it by the chat route.
  const owner = identity.resolve(new Request('http://localhost', { headers: { cookie: (created.headers.get('set-cookie') ?? '').split(';')[0]! } })).clientId
  const turn = await opened.run(() => opened.value.startTurn(owner, chat.id, { text: 'Book a flight from NYC to LAX' }))
  for (const event of FIRST_TURN) await opened.run(() => opened.value.appendEvents(owner, chat.id, turn, [event]))
  clock += 1
  const second = await opened.run(() => opened.value.startTurn(owner, chat.id, { pluginElicitResponses: [SEAT_ANSWER] }))
  await opened.run(() => opened.value.appendEvents(owner, chat.id, second, SECOND_TURN))
  return { id: chat.id, owner }
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const { error } = (await response.json()) as { error: { code: string; message: string } }
  return { status: response.status, code: error.code, message: error.message }
}

describe('the chats API', () => {
  it('lists, opens and renames a browser’s chats, newest first, each exactly as it streamed', async () => {
    const { id } = await bookedChat()
    clock += 1
    const empty = (await (await alice.send({ action: 'create' })).json()) as { chat: { id: string } }

    const list = await alice.send({ action: 'list' })
    expect(list.status).toBe(200)
    expect(list.headers.get('cache-control')).toBe('no-store')
    expect(await list.json()).toEqual({
      chats: [
        { id: empty.chat.id, title: '', updatedAt: clock, waiting: false },
        { id, title: 'Book a flight from NYC to LAX', updatedAt: clock - 1, waiting: false },
      ],
    })

    const { chat } = (await (await alice.send({ action: 'get', id })).json()) as { chat: { turns: Array<{ input: unknown; events: Array<{ type: string }> }>; conversationState: unknown[] } }
    expect(chat.turns.map((turn) => turn.input)).toEqual([{ text: 'Book a flight from NYC to LAX' }, { pluginElicitResponses: [SEAT_ANSWER] }])
    expect(chat.turns[1]!.events).toEqual(SECOND_TURN)
    expect(chat.turns[0]!.events.map((event) => event.type)).toEqual(FIRST_TURN.map((event) => event.type))
    expect(chat.conversationState).toHaveLength(3)

    clock += 1
    const renamed = await alice.send({ action: 'rename', id }, { body: { title: '  Trip to LA  ' } })
    expect(await renamed.json()).toEqual({ id, title: 'Trip to LA' })
    expect(((await (await alice.send({ action: 'list' })).json()) as { chats: Array<{ id: string; title: string }> }).chats[0]).toMatchObject({ id, title: 'Trip to LA' })
  })

  it('pages the list with a cursor, and refuses a cursor or limit it cannot use', async () => {
    for (let index = 0; index < 3; index++) {
      clock += 1
      await alice.send({ action: 'create' })
    }
    const first = (await (await alice.send({ action: 'list' }, { query: '?limit=2' })).json()) as { chats: unknown[]; next: string }
    expect(first.chats).toHaveLength(2)
    const second = (await (await alice.send({ action: 'list' }, { query: `?limit=2&cursor=${first.next}` })).json()) as { chats: unknown[]; next?: string }
    expect(second.chats).toHaveLength(1)
    expect(second.next).toBeUndefined()

    expect(await errorOf(await alice.send({ action: 'list' }, { query: '?cursor=garbage' }))).toMatchObject({ status: 400, code: 'invalid_request' })
    expect(await errorOf(await alice.send({ action: 'list' }, { query: '?limit=1000' }))).toMatchObject({ status: 400, code: 'invalid_request', message: expect.stringContaining('limit') })
  })

  it('answers another browser 404 for every chat of someone else’s, and shows it an empty list', async () => {
    const { id } = await bookedChat()
    expect(await (await mallory.send({ action: 'list' })).json()).toEqual({ chats: [] })
    const attempts = [
      mallory.send({ action: 'get', id }),
      mallory.send({ action: 'rename', id }, { body: { title: 'Mine' } }),
      mallory.send({ action: 'delete', id }),
      mallory.send({ action: 'restore', id }),
      mallory.send({ action: 'export', id }, { query: '?format=md' }),
      mallory.send({ action: 'export', id }),
    ]
    for (const response of await Promise.all(attempts)) {
      expect(await errorOf(response)).toEqual({ status: 404, code: 'chat_not_found', message: 'There is no such chat (it may have been deleted).' })
    }
    // Untouched for its owner.
    const { chat } = (await (await alice.send({ action: 'get', id })).json()) as { chat: { title: string } }
    expect(chat.title).toBe('Book a flight from NYC to LAX')
  })

  it('answers an id that is not one 404, as an unknown one', async () => {
    for (const id of ['nope', '../../etc/passwd', 'A'.repeat(22)]) {
      expect(await errorOf(await alice.send({ action: 'get', id }))).toMatchObject({ status: 404, code: 'chat_not_found' })
    }
  })

  it('deletes with undo: hidden at once, restored within 30 s, gone after', async () => {
    const { id } = await bookedChat()
    const deleted = await alice.send({ action: 'delete', id })
    expect(await deleted.json()).toEqual({ id, restorableUntil: clock + UNDO_MS })
    expect(await (await alice.send({ action: 'list' })).json()).toEqual({ chats: [] })
    expect((await alice.send({ action: 'get', id })).status).toBe(404)

    clock += UNDO_MS - 1
    expect(await (await alice.send({ action: 'restore', id })).json()).toEqual({ id })
    expect((await alice.send({ action: 'get', id })).status).toBe(200)

    await alice.send({ action: 'delete', id })
    clock += UNDO_MS
    expect(await errorOf(await alice.send({ action: 'restore', id }))).toMatchObject({ status: 404, code: 'chat_not_found' })
  })

  it('refuses a chat past the limit per browser with a 429, and a full chat’s next turn with a 413 the route can send', async () => {
    for (let index = 0; index < LIMITS.maxChats; index++) expect((await alice.send({ action: 'create' })).status).toBe(201)
    expect(await errorOf(await alice.send({ action: 'create' }))).toEqual({
      status: 429,
      code: 'too_many_chats',
      message: `You have ${LIMITS.maxChats} chats, as many as you may keep. Delete one to start another.`,
    })
    // Each browser has its own.
    expect((await mallory.send({ action: 'create' })).status).toBe(201)
  })

  it('exports Markdown a person can read: the messages, the tool call with its arguments and result, the question and its answer in words', async () => {
    const { id } = await bookedChat()
    const response = await alice.send({ action: 'export', id }, { query: '?format=md' })
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="book-a-flight-from-nyc-to-lax.md"')
    const markdown = await response.text()
    const expected = [
      '# Book a flight from NYC to LAX',
      '## You\n\nBook a flight from NYC to LAX',
      '## Assistant\n\nLet me book that flight.',
      '### Tool call: book_flight (NYC → LAX)\n\n```json\n{\n  "from": "NYC",\n  "destination": "LAX"\n}\n```',
      '**Question from book_flight:** Pick a seat on UA 123',
      '**Answer to “Pick a seat on UA 123”:** Seat: 10A · window',
      '**Result of book_flight:**\n\n```\nBooked: ticket TK-1234, seat 10A, $420\n```',
      '## Assistant\n\nYour ticket is TK-1234.',
    ]
    let from = 0
    for (const part of expected) {
      const at = markdown.indexOf(part, from)
      expect(at, `"${part}" in order in:\n${markdown}`).toBeGreaterThanOrEqual(0)
      from = at + part.length
    }
    // Machinery stays out: no progress lines, no signed conversation.
    expect(markdown).not.toContain('Finding flights')
    expect(markdown).not.toContain('conversation_state')
  })

  it('exports JSON that imports back as a new chat of whoever imports it, the same turns and state', async () => {
    const { id } = await bookedChat()
    const exported = (await (await alice.send({ action: 'export', id }, { query: '?format=json' })).json()) as ChatExport
    expect(exported).toMatchObject({ format: CHAT_EXPORT_FORMAT, version: 1, title: 'Book a flight from NYC to LAX' })

    const imported = await mallory.send({ action: 'create' }, { body: { import: exported } })
    expect(imported.status).toBe(201)
    const { chat: summary } = (await imported.json()) as { chat: { id: string } }
    expect(imported.headers.get('location')).toBe(`/api/chats/${summary.id}`)
    const { chat } = (await (await mallory.send({ action: 'get', id: summary.id })).json()) as { chat: ChatExport }
    expect(chat.turns).toEqual(exported.turns)
    expect(chat.conversationState).toEqual(exported.conversationState)
  })

  it('imports a hand-made export whose state is only in its last conversation_state event', async () => {
    const messages = [{ role: 'user' as const, content: 'Hello' }, { role: 'assistant' as const, content: 'Hi!' }]
    const handMade: ChatExport = {
      format: CHAT_EXPORT_FORMAT,
      version: 1,
      title: 'Hello',
      createdAt: clock,
      updatedAt: clock,
      turns: [{ input: { text: 'Hello' }, events: [{ type: 'text', content: 'Hi!' }, { type: 'conversation_state', messages }, { type: 'complete', text: 'Hi!' }] }],
    }
    const { chat: summary } = (await (await alice.send({ action: 'create' }, { body: { import: handMade } })).json()) as { chat: { id: string } }
    const { chat } = (await (await alice.send({ action: 'get', id: summary.id })).json()) as { chat: ChatExport }
    expect(chat.conversationState).toEqual(messages)
    expect(chat.turns).toEqual(handMade.turns)
  })

  it('imports an export made before a question’s context was a field of its own, its question read into today’s shape', async () => {
    const earlier = {
      format: CHAT_EXPORT_FORMAT,
      version: 1,
      title: 'Book a flight',
      createdAt: clock,
      updatedAt: clock,
      turns: [{ input: { text: 'Book a flight from NYC to LAX' }, events: [EARLIER_SEAT_QUESTION] }],
    }
    const created = await alice.send({ action: 'create' }, { body: { import: earlier } })
    expect(created.status).toBe(201)
    const { chat: summary } = (await created.json()) as { chat: { id: string } }
    const { chat } = (await (await alice.send({ action: 'get', id: summary.id })).json()) as { chat: ChatExport }
    expect(chat.turns[0]!.events).toEqual([SEAT_QUESTION])
  })

  it('refuses a malformed import clearly, naming what is wrong', async () => {
    const { id } = await bookedChat()
    const exported = (await (await alice.send({ action: 'export', id })).json()) as ChatExport

    expect(await errorOf(await alice.send({ action: 'create' }, { body: '{"import": ' }))).toMatchObject({ status: 400, code: 'invalid_json' })
    expect(await errorOf(await alice.send({ action: 'create' }, { body: { import: { ...exported, format: 'something-else' } } }))).toMatchObject({
      status: 400,
      code: 'invalid_import',
      message: expect.stringMatching(/^This is not a chat export this server can import: format: /),
    })
    const badEvent = { ...exported, turns: [{ input: { text: 'hi' }, events: [{ type: 'made_up', content: 'x' }] }] }
    expect(await errorOf(await alice.send({ action: 'create' }, { body: { import: badEvent } }))).toMatchObject({
      status: 400,
      code: 'invalid_import',
      message: expect.stringContaining('turns.0.events.0.type'),
    })
    expect(await errorOf(await alice.send({ action: 'create' }, { body: { title: 'x' } }))).toMatchObject({ status: 400, code: 'invalid_request' })
    expect(await errorOf(await alice.send({ action: 'create' }, { body: '{}', headers: { 'content-type': 'text/plain' } }))).toMatchObject({ status: 415 })
    // What a browser sends for `fetch('/api/chats', { method: 'POST' })`, as Next hands it on: an empty body, no type.
    expect((await alice.send({ action: 'create' }, { emptyStream: true, headers: { 'content-length': '0' } })).status).toBe(201)
  })

  it('refuses an import too big for a chat with a 413: too many events, or a body past the limit', async () => {
    const many: ChatExport = {
      format: CHAT_EXPORT_FORMAT,
      version: 1,
      title: 'Long',
      createdAt: clock,
      updatedAt: clock,
      turns: [{ input: { text: 'go' }, events: Array.from({ length: LIMITS.maxEvents + 1 }, () => ({ type: 'text' as const, content: '.' })) }],
    }
    expect(await errorOf(await alice.send({ action: 'create' }, { body: { import: many } }))).toMatchObject({
      status: 413,
      code: 'chat_too_large',
      message: expect.stringContaining(`${LIMITS.maxEvents} events`),
    })
    const huge = { ...many, turns: [{ input: { text: 'x'.repeat(5 * LIMITS.maxBytes) }, events: [] }] }
    expect(await errorOf(await alice.send({ action: 'create' }, { body: { import: huge } }))).toMatchObject({ status: 413, code: 'body_too_large' })
    expect(await (await alice.send({ action: 'list' })).json()).toEqual({ chats: [] })
  })

  it('refuses a rename without a title, or with one too long', async () => {
    const { id } = await bookedChat()
    expect(await errorOf(await alice.send({ action: 'rename', id }, { body: { title: '   ' } }))).toMatchObject({ status: 400, message: expect.stringContaining('at least one character') })
    expect(await errorOf(await alice.send({ action: 'rename', id }, { body: { title: 'x'.repeat(121) } }))).toMatchObject({ status: 400, message: expect.stringContaining('at most 120') })
    expect(await errorOf(await alice.send({ action: 'rename', id }, { body: { name: 'x' } }))).toMatchObject({ status: 400 })
  })

  it('refuses a change asked for by another site’s page', async () => {
    const { id } = await bookedChat()
    expect(await errorOf(await alice.send({ action: 'delete', id }, { headers: { 'sec-fetch-site': 'cross-site' } }))).toMatchObject({ status: 403, code: 'forbidden_origin' })
    expect((await alice.send({ action: 'get', id })).status).toBe(200)
  })

  it('charges every request to its address, as the chat does: past the budget a 429 with Retry-After', async () => {
    const clockOfAdmission = 0
    const admission = createAdmission({ burst: 2, perSecond: 1, globalBurst: 100, globalPerSecond: 100, now: () => clockOfAdmission })
    const limited = chatsBrowser({ ...app, admission })
    expect((await limited.send({ action: 'list' })).status).toBe(200)
    expect((await limited.send({ action: 'list' })).status).toBe(200)
    const refused = await limited.send({ action: 'list' })
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await errorOf(refused)).toMatchObject({ status: 429, code: 'rate_limited' })
  })
})
