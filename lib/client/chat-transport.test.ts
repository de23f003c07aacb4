import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatEvent } from '../protocol/events'
import { BUSY_RETRY_LIMIT_MS, secondsUntil } from './busy-retry'
import type { ChatController } from './chat-controller'
import { card, createServer, detachAll, rendersOf, start } from './testing/chat-harness'
import { elicitEvent } from '@/fixtures/elicit-event'
import { firstTurn, registry, seatTurn, trains } from '@/fixtures/book-train/testing/chat-turns'

// The chat's requests, through the controller as a user meets them: what goes with each, and what
// happens when the server is busy.

afterEach(detachAll)
beforeAll(async () => {
  await registry.load('book_train')
})

describe('app context (what MCP Apps tell the model)', () => {
  const reply = (text: string): ChatEvent[] => [
    { type: 'text', content: text },
    { type: 'complete', text },
    { type: 'conversation_state', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: text }] },
  ]

  it('goes with every later request, latest per app, newest last; New chat forgets it', async () => {
    const server = createServer()
    const chat = start({ registry, fetch: server.fetch })
    server.stream(reply('one'))
    await chat.send('first')
    expect(server.requests[0]!.appContext).toBeUndefined()

    chat.setAppContext('a', 'A1')
    chat.setAppContext('b', 'B1')
    chat.setAppContext('a', 'A2')
    server.stream(reply('two'))
    await chat.send('second')
    expect(server.requests[1]!.appContext).toEqual([
      { source: 'b', text: 'B1' },
      { source: 'a', text: 'A2' },
    ])

    chat.setAppContext('b', undefined)
    server.stream(reply('three'))
    await chat.send('third')
    expect(server.requests[2]!.appContext).toEqual([{ source: 'a', text: 'A2' }])

    await chat.newChat()
    server.stream(reply('four'))
    await chat.send('fourth')
    expect(server.requests[3]!.appContext).toBeUndefined()
  })
})

describe('when the server is busy (429 with Retry-After)', () => {
  const refusal = { code: 'rate_limited', message: 'The server is taking too many requests right now. Wait a moment, then try again.', scope: 'server' }
  /** The server's refusal: `Retry-After` when given. */
  const busy = (retryAfter?: number) => () =>
    Response.json({ error: refusal }, { status: 429, headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) } })
  const hello: ChatEvent[] = [
    { type: 'text', content: 'Hi' },
    { type: 'complete', text: 'Hi' },
    { type: 'conversation_state', messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hi' }] },
  ]
  /** The seconds the busy notice shows now. */
  const countdown = (chat: ChatController) => {
    const waiting = chat.getSnapshot().busy
    return waiting && secondsUntil(waiting.retryAt, Date.now())
  }
  /** Let the controller go as far as it can without time passing (a real macrotask: setImmediate is not faked). */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('sends the same message again after Retry-After seconds, counting down meanwhile', async () => {
    const server = createServer()
    server.next(busy(2))
    server.stream(hello)
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Hello')
    await settle()

    expect(server.requests).toHaveLength(1)
    expect(chat.getSnapshot().busy).toEqual({ retryAt: 2000 })
    expect(countdown(chat)).toBe(2)
    // Waiting is not an error: the message stays, the turn is still on (Stop is offered).
    expect(chat.getSnapshot().state).toMatchObject({ status: 'streaming', error: undefined, entries: [{ kind: 'user', text: 'Hello' }] })

    await vi.advanceTimersByTimeAsync(1000)
    expect(countdown(chat)).toBe(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(server.requests).toHaveLength(1)

    await vi.advanceTimersByTimeAsync(1)
    await sending
    expect(server.requests).toEqual([{ messages: [{ role: 'user', content: 'Hello' }] }, { messages: [{ role: 'user', content: 'Hello' }] }])
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state).toMatchObject({ status: 'idle', error: undefined })
    expect(chat.getSnapshot().state.entries.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hi' })
  })

  it('sends a slash command again as it was', async () => {
    const server = createServer()
    server.next(busy(1))
    server.stream([{ type: 'conversation_state', messages: [] }])
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('/echo {"text":"hi"}')
    await settle()
    expect(chat.getSnapshot().busy).toEqual({ retryAt: 1000 })
    await vi.advanceTimersByTimeAsync(1000)
    await sending
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]).toEqual(server.requests[0])
    expect(server.requests[1]!.directToolCall).toEqual({ name: 'echo', arguments: { text: 'hi' } })
  })

  it('sends an answer again, the choice shown as sent while it waits', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')

    server.next(busy(3))
    server.stream(seatTurn)
    rendersOf(chat, 'call-1')[0].respond({ action: 'accept', content: { trainId: trains[0].id } })
    await settle()
    expect(server.requests).toHaveLength(2)
    expect(chat.getSnapshot().busy).toEqual({ retryAt: 3000 })
    expect(card(chat, 'call-1').elicitations[0]).toMatchObject({ status: 'submitted', answers: [], result: { action: 'accept', content: { trainId: trains[0].id } } })

    await vi.advanceTimersByTimeAsync(3000)
    await settle()
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]).toEqual(server.requests[1])
    expect(server.requests[2]!.pluginElicitResponses).toEqual([
      { sessionId: 'call-1', callId: 'call-1', elicitId: 'book_train/pickTrain/call-1/3', result: { action: 'accept', content: { trainId: trains[0].id } } },
    ])
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect((rendersOf(chat, 'call-1')[0]?.props.Component as () => unknown)?.name).toBe('SeatChoice')
  })

  it('Stop during the wait sends nothing more; the message stays as a stopped turn', async () => {
    const server = createServer()
    server.next(busy(5))
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Hello')
    await settle()
    expect(chat.getSnapshot().busy).toBeDefined()

    await chat.stop()
    await sending
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(1)
    const snapshot = chat.getSnapshot()
    expect(snapshot.busy).toBeUndefined()
    expect(snapshot.state).toMatchObject({
      status: 'idle',
      error: undefined,
      messages: [{ role: 'user', content: 'Hello' }],
      entries: [{ kind: 'user', text: 'Hello' }],
    })
    expect(snapshot.state.turn).toBeUndefined()
  })

  it('Stop while an answer waits stops its tool and sends nothing more', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')
    server.next(busy(5))
    rendersOf(chat, 'call-1')[0].respond({ action: 'accept', content: { trainId: trains[0].id } })
    await settle()
    expect(chat.getSnapshot().busy).toBeDefined()

    await chat.stop()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(2)
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state.status).toBe('idle')
    expect(card(chat, 'call-1')).toMatchObject({ status: 'stopped', elicitations: [{ status: 'stopped' }] })
  })

  it('sends a refused Stop again; a second Stop during its wait gives up the rest', async () => {
    const ids = ['call-a', 'call-b', 'call-c']
    const server = createServer()
    server.stream([
      { type: 'tool_calls', calls: ids.map((id) => ({ id, name: 'book_train', arguments: {} })) },
      ...ids.map((id) => elicitEvent({ callId: id, toolName: 'book_train', key: 'pickTrain', seq: 3, message: 'Pick', context: { trains } })),
      { type: 'conversation_state', messages: [{ role: 'user', content: 'three' }] },
    ])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('three')

    server.next(busy(2))
    server.stream([{ type: 'conversation_state', messages: [{ role: 'user', content: 'three' }] }])
    server.next(busy(2))
    const stopping = chat.stop()
    await settle()
    expect(chat.getSnapshot().busy).toEqual({ retryAt: 2000 })
    await vi.advanceTimersByTimeAsync(2000)
    await settle()
    // call-a's Stop went again and was taken; call-b's was refused in its turn.
    expect(server.requests.slice(1).map((body) => body.pluginAbort?.sessionId)).toEqual(['call-a', 'call-a', 'call-b'])
    expect(chat.getSnapshot().busy).toEqual({ retryAt: 4000 })

    await chat.stop()
    await stopping
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    // Neither call-b's Stop again, nor call-c's.
    expect(server.requests).toHaveLength(4)
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state.status).toBe('idle')
    for (const id of ids) expect(card(chat, id).status).toBe('stopped')
  })

  it('shows the error after 30 s of refusals, and sends no more', async () => {
    const server = createServer()
    for (let index = 0; index < 40; index++) server.next(busy(1))
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Hello')
    await vi.advanceTimersByTimeAsync(BUSY_RETRY_LIMIT_MS - 1000)
    expect(chat.getSnapshot().busy).toBeDefined()
    expect(chat.getSnapshot().state.error).toBeUndefined()

    await vi.advanceTimersByTimeAsync(1000)
    await sending
    // Refused at 0, 1, … 30 s.
    expect(server.requests).toHaveLength(31)
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state).toMatchObject({ status: 'error', error: refusal.message })
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(31)
  })

  it('shows a 429 without Retry-After, and a 400, as before: no retry', async () => {
    const server = createServer()
    server.next(busy())
    server.next(() => Response.json({ error: { code: 'INVALID_REQUEST', message: 'The conversation is too long.' } }, { status: 400, headers: { 'Retry-After': '1' } }))
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Hello')
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state).toMatchObject({ status: 'error', error: refusal.message })
    await chat.send('Hello again')
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state).toMatchObject({ status: 'error', error: 'The conversation is too long.' })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(2)
  })

  it('New chat during the wait sends nothing more and leaves no timer', async () => {
    const server = createServer()
    server.next(busy(5))
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Hello')
    await settle()
    await chat.newChat()
    await sending
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(1)
    expect(chat.getSnapshot().busy).toBeUndefined()
    expect(chat.getSnapshot().state).toMatchObject({ status: 'idle', entries: [] })
  })

  it('leaves no timer when the chat goes away during the wait', async () => {
    const server = createServer()
    server.next(busy(5))
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Hello')
    await settle()
    chat.detach()
    await sending
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(server.requests).toHaveLength(1)
  })
})
