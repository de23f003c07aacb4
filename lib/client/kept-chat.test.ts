import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ChatEvent } from '../protocol/events'
import type { WaitingCallNews } from '../protocol/ended-call'
import { isChatId } from '../protocol/chat-id'
import type { ChatRequest } from '../protocol/request-schema'
import { createPluginRegistry } from '../plugins'
import { TrainList } from '@/fixtures/book-train/components/TrainList'
import type { ChatController } from './chat-controller'
import { renderKey } from './handler-tasks'
import { openElicitations } from './chat-state'
import { holdsAnswer, replayChat, type KeptChat, type KeptTurn } from './server-chat'
import { card, createServer, detachAll, rendersOf, start } from './testing/chat-harness'
import { createTwoStepPlugin, twoStepTurn } from '@/fixtures/two-step/plugin'
import { firstTurn, registry, seatTurn, trains } from '@/fixtures/book-train/testing/chat-turns'

afterEach(detachAll)
beforeAll(async () => {
  await registry.load('book_train')
})

/** A page's `GET /api/chats/<id>/waiting`, held open: the test says when a call ends, and sees when the page lets it go. */
interface HeldWatch {
  path: string
  signal: AbortSignal
  end(event: WaitingCallNews): void
}

/**
 * The chats API beside the scripted `/api/chat`: `GET /api/chats/<id>` answers the chats in
 * `kept` (404 for any other id); `GET /api/chats/<id>/waiting` is held open in `watches`.
 */
function createApp(kept: Record<string, KeptChat> = {}) {
  const chat = createServer()
  const calls: string[] = []
  const watches: HeldWatch[] = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url)
    calls.push(`${init?.method ?? 'GET'} ${path}`)
    if (path === '/api/chat') return chat.fetch(url, init)
    if (/\/waiting(\?|$)/.test(path)) {
      const signal = init!.signal!
      let send!: (event: WaitingCallNews) => void
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          send = (event) => controller.enqueue(new TextEncoder().encode(`${JSON.stringify(event)}\n`))
          signal.addEventListener('abort', () => controller.error(signal.reason))
        },
      })
      watches.push({ path, signal, end: (event) => send(event) })
      return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } })
    }
    const id = /^\/api\/chats\/(.+)$/.exec(path)?.[1]
    const found = id === undefined ? undefined : kept[decodeURIComponent(id)]
    if (found) return Response.json({ chat: found })
    return Response.json({ error: { code: 'chat_not_found', message: 'There is no such chat (it may have been deleted).' } }, { status: 404 })
  })
  return { chat, calls, watches, fetch: fetch as unknown as typeof globalThis.fetch }
}

/** What the server keeps of a turn's events: an earlier `conversation_state` without its messages. */
const asKept = (events: ChatEvent[]): ChatEvent[] => events.map((event) => (event.type === 'conversation_state' ? { ...event, messages: [] } : event))

/**
 * `chat-1` as the server keeps it: each turn's input and events — an earlier turn's
 * `conversation_state` without its messages — titled by its first message, and the last turn's
 * conversation as the one the next request sends.
 */
function keptChat(turns: KeptTurn[]): KeptChat {
  const last = [...(turns.at(-1)?.events ?? [])].reverse().find((event) => event.type === 'conversation_state')
  return {
    id: 'chat-1',
    title: turns[0]?.input.text ?? '',
    turns: turns.map((turn, index) => (index < turns.length - 1 ? { ...turn, events: asKept(turn.events) } : turn)),
    ...(last?.type === 'conversation_state' ? { conversationState: last.messages } : {}),
  }
}

async function ready(controller: ChatController) {
  await vi.waitFor(() => expect(controller.getSnapshot().ready).toBe(true))
  return controller
}

describe('a chat kept on the server', () => {
  it('makes the chat with the first send’s turn (no request of its own), names it in every request, and says when it was made and when each turn ended', async () => {
    const app = createApp()
    const changes: Array<{ id: string; created: boolean }> = []
    app.chat.stream(firstTurn)
    const live = await ready(start({ registry, fetch: app.fetch, kept: { onChange: (change) => changes.push(change) } }))
    await live.send('Book a train from Paris to Lyon')

    const first = app.chat.requests[0] as ChatRequest
    expect(first).toMatchObject({ newChat: true, messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }] })
    const id = first.chatId!
    expect(isChatId(id)).toBe(true)
    // The question waits: the page follows it on the server, in the chat its turn made.
    // It names the question it shows waiting.
    const asked = () => live.getSnapshot().state.entries.flatMap((entry) => (entry.kind === 'tool' ? entry.elicitations : []))[0]?.question.elicitId ?? ''
    await vi.waitFor(() => expect(app.calls).toEqual(['POST /api/chat', `GET /api/chats/${id}/waiting?questions=${encodeURIComponent(asked())}`]))
    expect(changes).toEqual([
      { id, created: true },
      { id, created: false },
    ])

    app.chat.stream(seatTurn)
    rendersOf(live, 'call-1')[0]!.respond({ action: 'accept', content: { trainId: trains[0].id } })
    await vi.waitFor(() => expect(app.chat.requests).toHaveLength(2))
    expect(app.chat.requests[1]).toMatchObject({ chatId: id, pluginElicitResponses: [{ sessionId: 'call-1' }] })
    expect(app.chat.requests[1]).not.toHaveProperty('newChat')
    await vi.waitFor(() => expect(changes).toHaveLength(3))
  })

  it('makes the chat again with the next send when the server refused the first, and a new chat with a new id', async () => {
    const app = createApp()
    const changes: Array<{ id: string; created: boolean }> = []
    app.chat.next(() => Response.json({ error: { code: 'too_many_chats', message: 'You have 5000 chats, as many as you may keep. Delete one to start another.' } }, { status: 429 }))
    const live = await ready(start({ registry, fetch: app.fetch, kept: { onChange: (change) => changes.push(change) } }))
    await live.send('Book a train from Paris to Lyon')
    expect(live.getSnapshot().state.error).toContain('as many as you may keep')
    expect(changes.filter((change) => change.created)).toEqual([])

    app.chat.stream(firstTurn)
    await live.send('Book a train from Paris to Lyon')
    const [refused, taken] = app.chat.requests as ChatRequest[]
    expect(taken).toMatchObject({ newChat: true, chatId: refused!.chatId })
    expect(changes.filter((change) => change.created)).toEqual([{ id: refused!.chatId, created: true }])

    await live.newChat()
    app.chat.stream(firstTurn)
    await live.send('Book a train from Paris to Lyon')
    const another = app.chat.requests[2] as ChatRequest
    expect(another.newChat).toBe(true)
    expect(another.chatId).not.toBe(refused!.chatId)
  })

  it('goes on in the chat the server made when a first turn was refused after it (409 chat_exists): the same id, no longer new', async () => {
    const app = createApp()
    const changes: Array<{ id: string; created: boolean }> = []
    // The first turn made the chat, then was refused (a tool not the person's): the chat keeps the refusal.
    app.chat.next(() => Response.json({ error: { code: 'tool_not_allowed', message: 'The tool "files__read" is not yours to use.' } }, { status: 403 }))
    const live = await ready(start({ registry, fetch: app.fetch, kept: { onChange: (change) => changes.push(change) } }))
    await live.send('/files__read {}')
    expect(live.getSnapshot().state.error).toContain('not yours to use')

    app.chat.next(() => Response.json({ error: { code: 'chat_exists', message: 'There is a chat of this id already: a new chat needs a new id.' } }, { status: 409 }))
    app.chat.stream(firstTurn)
    await live.send('Book a train from Paris to Lyon')
    const [refused, exists, taken] = app.chat.requests as ChatRequest[]
    expect(exists).toMatchObject({ newChat: true, chatId: refused!.chatId })
    expect(taken).toMatchObject({ chatId: refused!.chatId })
    expect(taken).not.toHaveProperty('newChat')
    expect(live.getSnapshot().state.error).toBeUndefined()
    expect(changes.filter((change) => change.created)).toEqual([{ id: refused!.chatId, created: true }])
  })

  it('opens a chat as it was shown live — its card, the folded answer, the question still waiting — and answers that question in the same chat', async () => {
    // The chat, lived: a booking answered once, waiting at the seat.
    const liveApp = createApp()
    liveApp.chat.stream(firstTurn)
    const live = await ready(start({ registry, fetch: liveApp.fetch, kept: {} }))
    await live.send('Book a train from Paris to Lyon')
    liveApp.chat.stream(seatTurn)
    rendersOf(live, 'call-1')[0]!.respond({ action: 'accept', content: { trainId: trains[0].id } })
    await vi.waitFor(() => expect(live.getSnapshot().state.status).toBe('awaiting_input'))
    await vi.waitFor(() => expect(liveApp.chat.requests).toHaveLength(2))
    const answered = liveApp.chat.requests[1] as ChatRequest

    // The same chat as the server keeps it, opened in another page.
    const kept = keptChat([
      { input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn },
      { input: { pluginElicitResponses: answered.pluginElicitResponses }, events: seatTurn },
    ])
    const app = createApp({ 'chat-1': kept })
    const opened = await ready(start({ registry, fetch: app.fetch, kept: { id: 'chat-1' } }))

    const seat = openElicitations(live.getSnapshot().state)[0]!.question.elicitId
    await vi.waitFor(() => expect(app.calls).toEqual(['GET /api/chats/chat-1', `GET /api/chats/chat-1/waiting?questions=${encodeURIComponent(seat)}`]))
    expect(opened.getSnapshot().state).toEqual(live.getSnapshot().state)
    expect(opened.getSnapshot().notFound).toBeUndefined()

    // The waiting question is shown again, and its answer goes to the same chat, continuing its conversation.
    await vi.waitFor(() => expect((rendersOf(opened, 'call-1')[0]?.props.Component as () => unknown)?.name).toBe('SeatChoice'))
    app.chat.stream([
      { type: 'tool_result', id: 'call-1', name: 'book_train', content: '{"status":"confirmed","ticketNumber":"TKT-1"}' },
      { type: 'conversation_state', messages: kept.conversationState! },
      { type: 'complete', text: '' },
    ])
    rendersOf(opened, 'call-1')[0]!.respond({ action: 'accept', content: { row: 1, seat: 'A' } })
    await vi.waitFor(() => expect(app.chat.requests).toHaveLength(1))
    expect(app.chat.requests[0]).toMatchObject({ chatId: 'chat-1', messages: kept.conversationState, pluginElicitResponses: [{ sessionId: 'call-1' }] })
    await vi.waitFor(() => expect(opened.getSnapshot().state.status).toBe('idle'))
  })

  it('says a chat is not found — unknown, deleted or another browser’s — and shows nothing of it', async () => {
    const app = createApp()
    const opened = await ready(start({ registry, fetch: app.fetch, kept: { id: 'someone-elses' } }))
    expect(opened.getSnapshot()).toMatchObject({ notFound: true, state: { entries: [], messages: [] } })
    expect(app.calls).toEqual(['GET /api/chats/someone-elses'])
  })

  it('shows a turn the server was killed in as cut short, keeping what it had streamed', async () => {
    const kept = keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn.slice(0, 2) }])
    const opened = await ready(start({ registry, fetch: createApp({ 'chat-1': kept }).fetch, kept: { id: 'chat-1' } }))
    const { state } = opened.getSnapshot()
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool'])
    expect(state.status).toBe('error')
    expect(state.turn).toBeUndefined()
    // Nothing was signed yet: the next message starts the conversation again, as the server has it.
    expect(state.messages).toEqual([])
  })

  it('starts a new chat without stopping the questions the old one waits on (it is kept)', async () => {
    const app = createApp()
    app.chat.stream(firstTurn)
    const live = await ready(start({ registry, fetch: app.fetch, kept: {} }))
    await live.send('Book a train from Paris to Lyon')
    await vi.waitFor(() => expect(app.watches).toHaveLength(1))
    await live.newChat()
    expect(live.getSnapshot().state.entries).toEqual([])
    // No Stop went to the server for the waiting booking; the page follows it no more.
    expect(app.calls).toEqual(['POST /api/chat', app.calls[1]])
    expect(app.watches[0]!.signal.aborted).toBe(true)
  })

  it('shows an answered question answered again, its answer the result, when the plugin arrives as a chunk', async () => {
    const answer = { action: 'accept' as const, content: { trainId: trains[0].id } }
    const kept = keptChat([
      { input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn },
      { input: { pluginElicitResponses: [{ sessionId: 'call-1', callId: 'call-1', elicitId: 'book_train/pickTrain/call-1/3', result: answer }] }, events: seatTurn },
    ])
    // A new page: the plugin's browser half arrives with the question, as a chunk does.
    const lazy = createPluginRegistry([{ toolName: 'book_train', load: () => import('@/fixtures/book-train/plugin').then((module) => module.bookTrainPlugin) }])
    const opened = await ready(start({ registry: lazy, fetch: createApp({ 'chat-1': kept }).fetch, kept: { id: 'chat-1' } }))
    const trainQuestion = card(opened, 'call-1').elicitations[0]!
    await vi.waitFor(() => expect(opened.getSnapshot().renders[renderKey(trainQuestion)]).toHaveLength(1))
    expect(opened.getSnapshot().renders[renderKey(trainQuestion)]![0]).toMatchObject({ props: { Component: TrainList }, answered: true, response: answer })
  })

  it('shows the steps of an answered question again, when the plugin arrives only later', async () => {
    // The chat, lived: a question answered in two steps.
    const liveApp = createApp()
    const plugin = createTwoStepPlugin()
    liveApp.chat.stream(twoStepTurn)
    const live = await ready(start({ registry: createPluginRegistry([plugin]), fetch: liveApp.fetch, kept: {} }))
    await live.send('go')
    const done: ChatEvent[] = [
      { type: 'tool_result', id: 'call-1', name: 'two_step', content: 'done' },
      { type: 'conversation_state', messages: [{ role: 'user', content: 'go' }] },
      { type: 'complete', text: '' },
    ]
    liveApp.chat.stream(done)
    rendersOf(live, 'call-1')[0]!.respond('yes')
    rendersOf(live, 'call-1')[1]!.respond('sure')
    await vi.waitFor(() => expect(live.getSnapshot().state.status).toBe('idle'))
    const answered = liveApp.chat.requests[1] as ChatRequest
    const kept = keptChat([
      { input: { text: 'go' }, events: twoStepTurn },
      { input: { pluginElicitResponses: answered.pluginElicitResponses }, events: done },
    ])

    // Opened in another page, where the plugin's code comes later, as a chunk does.
    let arrive!: () => void
    const arrived = new Promise<void>((resolve) => (arrive = resolve))
    const lazy = createPluginRegistry([{ toolName: 'two_step', load: () => arrived.then(() => plugin) }])
    const opened = await ready(start({ registry: lazy, fetch: createApp({ 'chat-1': kept }).fetch, kept: { id: 'chat-1' } }))
    expect(rendersOf(opened, 'call-1')).toEqual([])
    arrive()
    await vi.waitFor(() => expect(rendersOf(opened, 'call-1')).toHaveLength(2))
    expect(rendersOf(opened, 'call-1').map((rendered) => [rendered.answered, rendered.response])).toEqual([
      [true, 'yes'],
      [true, 'sure'],
    ])
  })

  it('gives a component the question’s choices again', async () => {
    const choices = { trainId: trains.map((train) => ({ value: train.id, title: train.number })) }
    const kept = keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: [...firstTurn.slice(0, 3), { ...firstTurn[3], choices } as ChatEvent, firstTurn[4]] }])
    const opened = await ready(start({ registry, fetch: createApp({ 'chat-1': kept }).fetch, kept: { id: 'chat-1' } }))
    await vi.waitFor(() => expect(rendersOf(opened, 'call-1')).toHaveLength(1))
    expect(rendersOf(opened, 'call-1')[0]!.props).toMatchObject({ message: 'Select your train from Paris to Lyon:', choices })
  })
})

describe('a kept chat’s question that ends without this page', () => {
  const ended: ChatEvent = { type: 'plugin_session_error', sessionId: 'call-1', callId: 'call-1', error: 'SESSION_ABORTED', message: 'An operator ended this question.' }

  it('shows it ended when the chat is opened after (endedCalls), and follows nothing', async () => {
    const kept = { ...keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }]), endedCalls: [ended] }
    const app = createApp({ 'chat-1': kept })
    const opened = await ready(start({ registry, fetch: app.fetch, kept: { id: 'chat-1' } }))
    const { state } = opened.getSnapshot()
    expect(state.status).toBe('idle')
    expect(card(opened, 'call-1')).toMatchObject({ status: 'stopped', error: 'The plugin session was stopped: An operator ended this question.' })
    expect(card(opened, 'call-1').elicitations.map((elicitation) => elicitation.status)).toEqual(['stopped'])
    expect(app.calls).toEqual(['GET /api/chats/chat-1'])
  })

  it('shows it ended the moment the server says so, lets the request go, and tells the list', async () => {
    const app = createApp({ 'chat-1': keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }]) })
    const changes: Array<{ id: string; created: boolean }> = []
    const opened = await ready(start({ registry, fetch: app.fetch, kept: { id: 'chat-1', onChange: (change) => changes.push(change) } }))
    await vi.waitFor(() => expect(rendersOf(opened, 'call-1')).toHaveLength(1))
    await vi.waitFor(() => expect(app.watches).toHaveLength(1))

    app.watches[0]!.end(ended)
    await vi.waitFor(() => expect(card(opened, 'call-1')).toMatchObject({ status: 'stopped', error: 'The plugin session was stopped: An operator ended this question.' }))
    expect(opened.getSnapshot().state.status).toBe('idle')
    // The question waits no more, the request is let go, the list told: its waiting mark goes.
    expect(card(opened, 'call-1').elicitations.map((elicitation) => elicitation.status)).toEqual(['stopped'])
    await vi.waitFor(() => expect(app.watches[0]!.signal.aborted).toBe(true))
    expect(changes).toEqual([{ id: 'chat-1', created: false }])
    expect(app.watches).toHaveLength(1)
  })
})

describe('a kept chat’s question answered on another page', () => {
  it('is read again the moment the server says so, and shown as kept: the answer folded, the next question waiting and followed, the list told', async () => {
    const kept: Record<string, KeptChat> = { 'chat-1': keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }]) }
    const app = createApp(kept)
    const changes: Array<{ id: string; created: boolean }> = []
    const opened = await ready(start({ registry, fetch: app.fetch, kept: { id: 'chat-1', onChange: (change) => changes.push(change) } }))
    await vi.waitFor(() => expect(app.watches).toHaveLength(1))
    const train = openElicitations(opened.getSnapshot().state)[0]!.question

    // Another page answered it: the chat as the server keeps it now holds that turn, to its end.
    const answer = { sessionId: train.sessionId, callId: train.callId, elicitId: train.elicitId, result: { action: 'accept' as const, content: { trainId: trains[0].id } } }
    kept['chat-1'] = keptChat([
      { input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn },
      { input: { pluginElicitResponses: [answer] }, events: seatTurn },
    ])
    app.watches[0]!.end({ type: 'call_answered', callId: train.callId, elicitId: train.elicitId })

    await vi.waitFor(() => expect(openElicitations(opened.getSnapshot().state).map((one) => one.question.key)).toEqual(['pickSeat']))
    expect(card(opened, 'call-1').elicitations.map((elicitation) => [elicitation.question.key, elicitation.status])).toEqual([
      ['pickTrain', 'submitted'],
      ['pickSeat', 'waiting'],
    ])
    expect(opened.getSnapshot().state.status).toBe('awaiting_input')
    // The train's request is let go; the seat is followed instead.
    await vi.waitFor(() => expect(app.watches).toHaveLength(2))
    expect(app.watches[0]!.signal.aborted).toBe(true)
    const seat = openElicitations(opened.getSnapshot().state)[0]!.question.elicitId
    expect(app.calls).toEqual([
      'GET /api/chats/chat-1',
      `GET /api/chats/chat-1/waiting?questions=${encodeURIComponent(train.elicitId)}`,
      'GET /api/chats/chat-1',
      `GET /api/chats/chat-1/waiting?questions=${encodeURIComponent(seat)}`,
    ])
    expect(changes).toEqual([{ id: 'chat-1', created: false }])
  })

  it('is shown only from a read that holds the answering turn to its end', () => {
    const asked = replayChat(keptChat([{ input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }]))
    const train = openElicitations(asked)[0]!.question
    const answer = { sessionId: train.sessionId, callId: train.callId, elicitId: train.elicitId, result: { action: 'accept' as const, content: { trainId: trains[0].id } } }
    const holds = (turns: KeptTurn[]) => {
      const chat = keptChat(turns)
      return holdsAnswer(chat, replayChat(chat), train.elicitId)
    }
    const first = { input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }
    // Read before the answering turn was kept, while it was kept in part (the seat asked, its end not yet), and once kept to its end.
    expect(holds([first])).toBe(false)
    expect(holds([first, { input: { pluginElicitResponses: [answer] }, events: seatTurn.filter((event) => event.type !== 'conversation_state') }])).toBe(false)
    expect(holds([first, { input: { pluginElicitResponses: [answer] }, events: seatTurn }])).toBe(true)
  })

  it('is not shown from a read in which the call ended before its answering turn was kept', () => {
    const first = { input: { text: 'Book a train from Paris to Lyon' }, events: firstTurn }
    const train = openElicitations(replayChat(keptChat([first])))[0]!.question
    // The answering turn ran the call to its end before its first batch was kept: the read names the call ended, without the turn.
    const ended = { type: 'tool_result' as const, id: train.callId, name: 'book_train', content: 'booked' }
    const chat = { ...keptChat([first]), endedCalls: [ended] }
    const shown = replayChat(chat)
    expect(openElicitations(shown)).toHaveLength(0)
    expect(holdsAnswer(chat, shown, train.elicitId)).toBe(false)
  })
})

/**
 * `/api/chat`'s answer to a turn that follows its questions (`follow`): the turn's events, then
 * `turn_end`, and the response held: the test sends its news, ends it, and sees when it is let go.
 */
function followedTurn(chat: ReturnType<typeof createServer>, events: ChatEvent[]) {
  const encoder = new TextEncoder()
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let signal!: AbortSignal
  chat.next(() => {
    signal = chat.signals.at(-1)!
    const body = new ReadableStream<Uint8Array>({
      start(opened) {
        controller = opened
        for (const event of [...events, { type: 'turn_end' }]) opened.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
        signal.addEventListener('abort', () => opened.error(new DOMException('The operation was aborted.', 'AbortError')))
      },
    })
    return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } })
  })
  return {
    news: (event: WaitingCallNews) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`)),
    end: () => controller.close(),
    get letGo() {
      return signal?.aborted === true
    },
  }
}

describe('a kept chat’s turn that follows its questions on its own response', () => {
  it('asks to, holds no request of its own for them, and shows a call ended elsewhere the moment the response says so, then lets it go', async () => {
    const app = createApp()
    const turn = followedTurn(app.chat, firstTurn)
    const live = await ready(start({ registry, fetch: app.fetch, kept: {} }))
    await live.send('Book a train from Paris to Lyon')
    expect(app.chat.requests[0]).toMatchObject({ follow: true, newChat: true })
    expect(live.getSnapshot().state.status).toBe('awaiting_input')

    turn.news({ type: 'plugin_session_error', sessionId: 'call-1', callId: 'call-1', error: 'SESSION_ABORTED', message: 'An operator ended this question.' })
    await vi.waitFor(() => expect(card(live, 'call-1')).toMatchObject({ status: 'stopped', error: 'The plugin session was stopped: An operator ended this question.' }))
    await vi.waitFor(() => expect(turn.letGo).toBe(true))
    // The turn's one request, and nothing else: no `GET /api/chats/:id/waiting`.
    expect(app.calls).toEqual(['POST /api/chat'])
  })

  it('lets the response go when the person answers on this page, and the answer’s turn asks to follow in turn', async () => {
    const app = createApp()
    const turn = followedTurn(app.chat, firstTurn)
    const live = await ready(start({ registry, fetch: app.fetch, kept: {} }))
    await live.send('Book a train from Paris to Lyon')
    app.chat.stream(seatTurn)
    rendersOf(live, 'call-1')[0]!.respond({ action: 'accept', content: { trainId: trains[0].id } })
    await vi.waitFor(() => expect(app.chat.requests).toHaveLength(2))
    await vi.waitFor(() => expect(turn.letGo).toBe(true))
    expect(app.chat.requests[1]).toMatchObject({ follow: true, pluginElicitResponses: [{ sessionId: 'call-1' }] })
    // The seat's turn did not follow on its response (the server did not): the page follows it by a request of its own.
    const seat = () => openElicitations(live.getSnapshot().state)[0]?.question.elicitId ?? ''
    await vi.waitFor(() => expect(app.calls).toEqual(['POST /api/chat', 'POST /api/chat', `GET /api/chats/${app.chat.requests[0]!.chatId}/waiting?questions=${encodeURIComponent(seat())}`]))
  })

  it('follows by a request of its own once the response ends while the question still waits', async () => {
    const app = createApp()
    const turn = followedTurn(app.chat, firstTurn)
    const live = await ready(start({ registry, fetch: app.fetch, kept: {} }))
    await live.send('Book a train from Paris to Lyon')
    // The instance stopping ends the response: after its pause (1 s), the page asks again, by the waiting route.
    turn.end()
    const asked = openElicitations(live.getSnapshot().state)[0]!.question.elicitId
    await vi.waitFor(() => expect(app.calls).toEqual(['POST /api/chat', `GET /api/chats/${app.chat.requests[0]!.chatId}/waiting?questions=${encodeURIComponent(asked)}`]), { timeout: 5_000 })
    expect(live.getSnapshot().state.status).toBe('awaiting_input')
  })
})
