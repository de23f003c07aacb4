import { describe, expect, it } from 'vitest'
import { describeTurn, flightAnswer, seatAnswer } from '../plugins/book-flight/e2e/booking-answers'
import type { ChatEvent, PluginElicitRequestEvent } from '../lib/protocol'
import { responseTo } from '../e2e/support/chat-api'
import { createKeptChat, errorCodeOf, type KeptChat, type KeptTurn, type StoredChat } from './support/kept-chat'
import { report } from './support/measure'
import { processesPerTest } from './support/processes'

/**
 * Faults on chats kept on the server (issue 25): a server killed with `kill -9` in the middle of
 * a turn, Redis stopped between two turns and in the middle of one.
 *
 * What is written when (docs/conversations.md, "When it is written"): a turn that names its chat
 * (`chatId`) is checked before anything else — before the answers reach the sessions and before
 * a byte streams; the store down there is a 503 `store_unavailable` and nothing is written. Its
 * input is stored with its first batch of events. Each batch of events is stored BEFORE it is
 * written to the browser (`lib/engine/ndjson-stream.ts`), so every event the browser has seen is
 * stored, and a `kill -9` loses at most the batch being stored (which the browser never got). An
 * append refused mid-turn (the store went down) is not written: the turn ends with an `error`
 * event `store_unavailable`, the one event the browser sees that the chat does not keep. Every
 * Redis write is one script, so nothing is half-written.
 *
 * So a person notices: after a crash, the chat reopens with everything they had seen; while the
 * store is away they get a clear error, never a 500, and the server stays up; once it is back,
 * the chat is as they left it, and goes on.
 */
const SECRET = 'reliability-suite-secret-of-at-least-32-chars'
/** Pieces of the offline model's text are this far apart: a greeting's ~22 pieces stream for about a second. */
const PACED = { OFFLINE_MODEL_DELAY_MS: '50' }
/** The fault is triggered from the stream once the client has read this many pieces of text of the turn. */
const CUT_AFTER_TEXTS = 5

const processes = processesPerTest()

/** A whole turn as the browser read it: a 200 stream that ends with `complete`. */
function expectCompleted(turn: KeptTurn): void {
  expect(turn.status, JSON.stringify(turn.json)).toBe(200)
  expect(turn.cut).toBeUndefined()
  expect(turn.events.at(-1)?.type, JSON.stringify(turn.events)).toBe('complete')
}

/** A clear refusal while the store is away: a 503 `store_unavailable` in the JSON error shape, or a stream that ends saying so in words. */
function isClearStoreError(turn: KeptTurn): boolean {
  if (turn.status === 503) return errorCodeOf(turn.json) === 'store_unavailable'
  const last = turn.events.at(-1)
  return turn.status === 200 && turn.cut === undefined && last?.type === 'error' && last.code === 'store_unavailable' && last.message.length > 0
}

/**
 * A turn cut in the middle, as stored: its input, then exactly every event the client read, in
 * order; past them at most the text being streamed when it was cut (a batch stored that the
 * client never read), never the turn's end.
 */
function expectCutTurnKept(stored: StoredChat['turns'][number] | undefined, input: Record<string, unknown>, seen: ChatEvent[]): void {
  expect(stored?.input).toEqual(input)
  const events = stored!.events
  expect(events.slice(0, seen.length)).toEqual(seen)
  expect(events.length).toBeGreaterThanOrEqual(seen.length)
  expect(events.slice(seen.length).map((event) => event.type)).toEqual(events.slice(seen.length).map(() => 'text'))
}

/** A turn's events as kept once a later turn brought a new conversation state: its own `conversation_state` carries `[]` (docs/conversations.md, "One conversation state per chat"). */
function superseded(events: ChatEvent[]): ChatEvent[] {
  return events.map((event) => (event.type === 'conversation_state' ? { ...event, messages: [] } : event))
}

/**
 * The chats API as the sidebar uses it, for this chat's browser: each request's status and error
 * code ("503 store_unavailable"), by what it does.
 */
async function chatRequestsWhileAway(chat: KeptChat): Promise<Record<string, string>> {
  const requests: Record<string, [string, RequestInit?]> = {
    list: ['/api/chats'],
    open: [`/api/chats/${chat.id}`],
    create: ['/api/chats', { method: 'POST', body: '{}' }],
    rename: [`/api/chats/${chat.id}`, { method: 'PATCH', body: JSON.stringify({ title: 'Renamed while away' }) }],
    delete: [`/api/chats/${chat.id}`, { method: 'DELETE' }],
    export: [`/api/chats/${chat.id}/export?format=json`],
  }
  const answers: Record<string, string> = {}
  for (const [name, [path, init]] of Object.entries(requests)) {
    const response = await fetch(`${chat.baseURL}${path}`, { ...init, headers: { 'content-type': 'application/json', cookie: chat.cookie } })
    const text = await response.text()
    let code: string | undefined
    try {
      code = errorCodeOf(JSON.parse(text))
    } catch {
      code = undefined
    }
    answers[name] = `${response.status} ${code ?? text.slice(0, 200)}`
  }
  return answers
}

/** Once Redis is back the server's client reconnects on its own schedule: the chat reads again within a few seconds. */
async function readWhenBack(chat: KeptChat): Promise<StoredChat> {
  await expect.poll(async () => (await chat.read()).status, { timeout: 15_000 }).toBe(200)
  return (await chat.read()).chat!
}

function answer(chat: KeptChat, question: PluginElicitRequestEvent, content: unknown): Promise<KeptTurn> {
  return chat.post({ messages: chat.messages, pluginElicitResponses: [responseTo(question, { action: 'accept', content })] })
}

function questionOf(turn: KeptTurn): PluginElicitRequestEvent | undefined {
  return turn.events.findLast((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
}

/** Every confirmed `book_flight` result in the chat's stored events: its tickets. */
function ticketsIn(chat: StoredChat): string[] {
  return chat.turns.flatMap((turn) =>
    turn.events.flatMap((event) => {
      if (event.type !== 'tool_result' || event.name !== 'book_flight') return []
      const result = JSON.parse(event.content) as { status?: string; ticketNumber?: string }
      return result.status === 'confirmed' && result.ticketNumber ? [result.ticketNumber] : []
    }),
  )
}

/** Says `text` and calls `fault` once, from the stream, when the client has read `CUT_AFTER_TEXTS` pieces of text. */
async function sayAndCut(chat: KeptChat, text: string, fault: () => Promise<void>): Promise<KeptTurn> {
  let texts = 0
  let faulted: Promise<void> | undefined
  const turn = await chat.say(text, (event) => {
    if (event.type === 'text' && ++texts === CUT_AFTER_TEXTS) faulted = fault()
  })
  if (!faulted) throw new Error(`The turn ended before ${CUT_AFTER_TEXTS} pieces of text: ${JSON.stringify(turn)}`)
  await faulted
  return turn
}

describe('faults on chats kept on the server', () => {
  it('kill -9 in the middle of a turn, then a restart on the same store: the chat keeps every event the browser received, and goes on', async () => {
    const first = await processes.app({ env: PACED })
    const chat = await createKeptChat(first.url)
    const greeting = await chat.say('Hello')
    expectCompleted(greeting)

    const cut = await sayAndCut(chat, 'Hello again', () => first.kill('SIGKILL'))
    // The browser saw the turn cut: the connection was lost before its end.
    expect(cut.status).toBe(200)
    expect(cut.cut, JSON.stringify(cut.events)).toBeDefined()
    expect(cut.events.some((event) => event.type === 'complete')).toBe(false)
    expect(cut.events.filter((event) => event.type === 'text').length).toBeGreaterThanOrEqual(CUT_AFTER_TEXTS)

    const second = await processes.app({ env: PACED, dataDir: first.dataDir })
    chat.baseURL = second.url
    const reopened = await chat.read()
    expect(reopened.status, JSON.stringify(reopened.json)).toBe(200)
    const kept = reopened.chat!
    expect(kept.title).toBe('Hello')
    expect(kept.turns).toHaveLength(2)
    expect(kept.turns[0]).toEqual({ input: { text: 'Hello' }, events: greeting.events })
    expectCutTurnKept(kept.turns[1], { text: 'Hello again' }, cut.events)

    // The chat goes on from what was kept, as the reopened page would send it.
    chat.messages = kept.conversationState ?? []
    expect(chat.messages.length).toBeGreaterThan(0)
    const booking = await chat.say('Book a flight from NYC to LAX')
    expect(booking.status, JSON.stringify(booking.json)).toBe(200)
    expect(questionOf(booking)?.key, JSON.stringify(booking.events)).toBe('pickFlight')
    const after = (await chat.read()).chat!
    expect(after.turns).toHaveLength(3)
    expect(after.turns[2]).toEqual({ input: { text: 'Book a flight from NYC to LAX' }, events: booking.events })
    expect(after.waiting).toBe(true)
    report('chats: kill -9 mid-turn (embedded store)', {
      'events read before the kill': cut.events.length,
      'events kept of that turn': kept.turns[1]!.events.length,
      'next turn after restart': 'ok',
    })
  })

  it('Redis stopped between two turns: a clear 503, the chat untouched, and it goes on once Redis is back', async () => {
    const redis = await processes.redis()
    const app = await processes.app({ env: { REDIS_URL: redis.url, SESSION_SECRET: SECRET } })
    const chat = await createKeptChat(app.url)
    expectCompleted(await chat.say('Hello'))
    const before = await chat.read()
    expect(before.status).toBe(200)

    await redis.stop()
    const refused = await chat.say('Hello again')
    expect(isClearStoreError(refused), JSON.stringify(refused)).toBe(true)
    // Every other request on chats is refused the same way, in the JSON error shape: nothing answers 500.
    const whileAway = await chatRequestsWhileAway(chat)
    expect(whileAway).toEqual(Object.fromEntries(Object.keys(whileAway).map((name) => [name, '503 store_unavailable'])))
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200)

    await redis.start()
    // Exactly as before the outage: no turn, no input, no event from the refused request.
    expect(await readWhenBack(chat)).toEqual(before.chat)
    const next = await chat.say('Hello again')
    expectCompleted(next)
    const after = (await chat.read()).chat!
    expect(after.turns).toHaveLength(2)
    expect(after.turns[1]).toEqual({ input: { text: 'Hello again' }, events: next.events })
    report('chats: Redis stopped between turns', {
      'turn while away': refused.status === 503 ? '503 store_unavailable' : 'stream ended store_unavailable',
      'list, open, create, rename, delete, export while away': '503 store_unavailable',
      'chat after': 'unchanged, then went on',
    })
  })

  it('Redis stopped while a turn streams: the turn ends with a clear error, and the chat keeps every event the browser received', async () => {
    const redis = await processes.redis()
    const app = await processes.app({ env: { ...PACED, REDIS_URL: redis.url, SESSION_SECRET: SECRET } })
    const chat = await createKeptChat(app.url)
    const greeting = await chat.say('Hello')
    expectCompleted(greeting)

    const cut = await sayAndCut(chat, 'Hello again', () => redis.stop())
    expect(isClearStoreError(cut), JSON.stringify(cut)).toBe(true)
    expect(cut.events.some((event) => event.type === 'complete')).toBe(false)
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200)

    await redis.start()
    const kept = await readWhenBack(chat)
    expect(kept.turns).toHaveLength(2)
    expect(kept.turns[0]).toEqual({ input: { text: 'Hello' }, events: greeting.events })
    // Everything but the error that ended it: the store had just refused that one.
    expectCutTurnKept(kept.turns[1], { text: 'Hello again' }, cut.events.slice(0, -1))
    expect(kept.turns[1]!.events.some((event) => event.type === 'error')).toBe(false)

    chat.messages = kept.conversationState ?? []
    const next = await chat.say('Hello once more')
    expectCompleted(next)
    expect((await chat.read()).chat!.turns).toHaveLength(3)
    report('chats: Redis stopped mid-turn', {
      'events read before the error': cut.events.length - 1,
      'events kept of that turn': kept.turns[1]!.events.length,
      'next turn once back': 'ok',
    })
  })

  it('Redis stopped while a booking waits for its seat: the answer gets a clear error, then answering again books once', async () => {
    const redis = await processes.redis()
    const app = await processes.app({ env: { REDIS_URL: redis.url, SESSION_SECRET: SECRET } })
    const chat = await createKeptChat(app.url)
    const start = await chat.say('Book a flight from NYC to LAX')
    const flight = questionOf(start)
    expect(flight?.key, JSON.stringify(start)).toBe('pickFlight')
    const seatTurn = await answer(chat, flight!, flightAnswer(flight!).content)
    const seat = questionOf(seatTurn)
    expect(seat?.key, JSON.stringify(seatTurn)).toBe('pickSeat')
    const before = await chat.read()
    expect(before.chat?.waiting).toBe(true)
    const conversation = chat.messages

    await redis.stop()
    const refused = await answer(chat, seat!, seatAnswer(seat!).content)
    expect(isClearStoreError(refused), JSON.stringify(refused)).toBe(true)
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200)

    await redis.start()
    const kept = await readWhenBack(chat)
    // Every event the browser received before is there; the refused answer left nothing behind.
    expect(kept).toEqual(before.chat)
    expect(kept.turns.map((turn) => turn.events)).toEqual([superseded(start.events), seatTurn.events])

    chat.messages = conversation
    const done = await answer(chat, seat!, seatAnswer(seat!).content)
    expect(done.status, JSON.stringify(done.json)).toBe(200)
    const after = (await chat.read()).chat!
    expect(after.turns).toHaveLength(3)
    expect(after.turns[2]!.events).toEqual(done.events)
    expect(ticketsIn(after), describeTurn({ status: done.status, events: done.events })).toHaveLength(1)
    expect(after.waiting).toBe(false)
    report('chats: Redis stopped while a booking waits', {
      'answer while away': refused.status === 503 ? '503 store_unavailable' : 'stream ended store_unavailable',
      'tickets after answering again': ticketsIn(after).length,
    })
  })
})
