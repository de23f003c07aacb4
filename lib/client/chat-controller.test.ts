import { beforeAll, beforeEach, afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import type { ChatRequest } from '../protocol/request-schema'
import { createPluginRegistry, makePlugin, type ElicitComponentProps } from '../plugins'
import { TrainList } from '@/fixtures/book-train/components/TrainList'
import { searchTrains, seatMapFor } from '@/fixtures/book-train/trains'
import { createMcpTool, encodeModelContext, formatElicitId } from '../tools'
import { BUSY_RETRY_LIMIT_MS, secondsUntil } from './busy-retry'
import { createChatController, type ChatController } from './chat-controller'
import { renderKey } from './handler-tasks'
import type { ToolCallEntry } from './chat-state'
import { createLocalPersistence } from './persistence'

/** A scripted `/api/chat`: each request gets the next answer, given the parsed body. */
function createServer() {
  const requests: ChatRequest[] = []
  const signals: AbortSignal[] = []
  const answers: Array<(body: ChatRequest) => Response> = []
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as ChatRequest
    requests.push(body)
    if (init?.signal) signals.push(init.signal)
    const answer = answers.shift()
    if (!answer) throw new Error(`unexpected request #${requests.length}: ${JSON.stringify(body)}`)
    return answer(body)
  })
  return {
    requests,
    signals,
    fetch: fetch as unknown as typeof globalThis.fetch,
    next(answer: (body: ChatRequest) => Response) {
      answers.push(answer)
    },
    /** Answer with these events; `hold` keeps the stream open until the request is aborted. */
    stream(events: ChatEvent[], { hold = false }: { hold?: boolean } = {}) {
      answers.push(() => ndjson(events, { hold, signal: signals.at(-1) }))
    },
  }
}

function ndjson(events: ChatEvent[], { hold, signal }: { hold: boolean; signal?: AbortSignal }): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
      if (!hold) return controller.close()
      signal?.addEventListener('abort', () => controller.error(new DOMException('The operation was aborted.', 'AbortError')))
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } })
}

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

const controllers: ChatController[] = []
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.detach()
})

function start(options: Parameters<typeof createChatController>[0]) {
  const controller = createChatController({ saveDelayMs: 0, ...options })
  controllers.push(controller)
  controller.attach()
  return controller
}

/** A controller started over a stored chat: ready once the stored chat's checker (its own chunk) has loaded and checked it. */
async function startRestored(options: Parameters<typeof createChatController>[0]) {
  const controller = start(options)
  await vi.waitFor(() => expect(controller.getSnapshot().ready).toBe(true))
  return controller
}

function card(controller: ChatController, callId: string): ToolCallEntry {
  const entry = controller.getSnapshot().state.entries.find((candidate) => candidate.kind === 'tool' && candidate.callId === callId)
  if (!entry || entry.kind !== 'tool') throw new Error(`no card for ${callId}`)
  return entry
}

/** The components shown for the latest attempt of a call's last elicitation. */
function rendersOf(controller: ChatController, callId: string) {
  const elicitation = card(controller, callId).elicitations.at(-1)
  if (!elicitation) throw new Error(`no elicitation for ${callId}`)
  return controller.getSnapshot().renders[renderKey(elicitation)] ?? []
}

function elicitEvent({
  callId,
  toolName,
  key,
  seq,
  message,
  context,
}: {
  callId: string
  toolName: string
  key: string
  seq: number
  message: string
  context: Record<string, unknown>
}): ChatEvent {
  const encoded = encodeModelContext({ message, schema: { type: 'object' }, context })
  return {
    type: 'plugin_elicit_request',
    sessionId: callId,
    callId,
    toolName,
    key,
    elicitId: formatElicitId({ toolName, key, callId, seq }),
    ...encoded,
  }
}

const trains = searchTrains('Paris', 'Lyon')
const bookingCall: Message = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'book_train', arguments: '{"from":"Paris","to":"Lyon"}' } }],
}
const firstTurn: ChatEvent[] = [
  { type: 'text', content: 'Searching trains.' },
  { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }] },
  { type: 'plugin_progress', sessionId: 'call-1', callId: 'call-1', message: 'Waiting for a train choice', progress: 0.25 },
  elicitEvent({
    callId: 'call-1',
    toolName: 'book_train',
    key: 'pickTrain',
    seq: 3,
    message: 'Select your train from Paris to Lyon:',
    context: { from: 'Paris', to: 'Lyon', trains },
  }),
  { type: 'conversation_state', messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }, bookingCall] },
]
const seatTurn: ChatEvent[] = [
  elicitEvent({
    callId: 'call-1',
    toolName: 'book_train',
    key: 'pickSeat',
    seq: 5,
    message: 'Select your seat:',
    context: { train: trains[0], seatMap: seatMapFor(trains[0]) },
  }),
  { type: 'conversation_state', messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }, bookingCall] },
]

// The fixture's browser half, listed as the app lists a plugin's: loaded on its first question.
const registry = createPluginRegistry([{ toolName: 'book_train', load: () => import('@/fixtures/book-train/plugin').then((module) => module.bookTrainPlugin) }])
// Loaded once up front, so that each test's renders follow its events without a chunk to wait for.
beforeAll(async () => {
  await registry.load('book_train')
})

describe('createChatController', () => {
  it('sends a message and streams the answer', async () => {
    const server = createServer()
    const finalMessages: Message[] = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi there' },
    ]
    server.stream([
      { type: 'text', content: 'Hi ' },
      { type: 'text', content: 'there' },
      { type: 'complete', text: 'Hi there' },
      { type: 'conversation_state', messages: finalMessages },
    ])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('  Hello ')
    expect(server.requests).toEqual([{ messages: [{ role: 'user', content: 'Hello' }] }])
    const { state } = chat.getSnapshot()
    expect(state.status).toBe('idle')
    expect(state.messages).toEqual(finalMessages)
    expect(state.entries).toEqual([
      { kind: 'user', id: 'user-0', text: 'Hello' },
      { kind: 'assistant', id: 'assistant-1', text: 'Hi there', streaming: false },
    ])
  })

  it('runs the plugin handlers in the browser and sends each answer with the last conversation', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')

    expect(chat.getSnapshot().state.status).toBe('awaiting_input')
    const [trainList] = rendersOf(chat, 'call-1')
    // The plugin registered TrainList for the question: it gets the question's message and decoded context.
    expect(trainList.props.Component).toBe(TrainList)
    expect(trainList.props).toMatchObject({ message: 'Select your train from Paris to Lyon:', context: { from: 'Paris', to: 'Lyon' }, choices: {} })
    expect(trainList.response).toBeUndefined()

    server.stream(seatTurn)
    trainList.respond({ action: 'accept', content: { trainId: trains[0].id } })
    await vi.waitFor(() => expect((rendersOf(chat, 'call-1')[0]?.props.Component as () => unknown)?.name).toBe('SeatChoice'))
    expect(server.requests[1]).toEqual({
      messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }, bookingCall],
      pluginElicitResponses: [
        {
          sessionId: 'call-1',
          callId: 'call-1',
          elicitId: 'book_train/pickTrain/call-1/3',
          result: { action: 'accept', content: { trainId: trains[0].id } },
        },
      ],
    })
    // The answered train list stays, disabled, with the choice.
    const trainElicitation = card(chat, 'call-1').elicitations[0]
    // Stored once: the component's answer is the question's result.
    expect(trainElicitation).toMatchObject({ status: 'submitted', answers: [], result: { action: 'accept', content: { trainId: trains[0].id } } })
    expect(chat.getSnapshot().renders[renderKey(trainElicitation)][0].response).toEqual({
      value: { action: 'accept', content: { trainId: trains[0].id } },
    })

    const confirmation = { status: 'confirmed', ticketNumber: 'TKT-ABC234', seat: '2A' }
    server.stream([
      { type: 'tool_result', id: 'call-1', name: 'book_train', content: JSON.stringify(confirmation) },
      { type: 'text', content: 'Booked.' },
      { type: 'complete', text: 'Booked.' },
      { type: 'conversation_state', messages: [] },
    ])
    rendersOf(chat, 'call-1')[0].respond({ action: 'accept', content: { row: 2, seat: 'A' } })
    await vi.waitFor(() => expect(chat.getSnapshot().state.status).toBe('idle'))
    expect(server.requests[2].pluginElicitResponses).toEqual([
      { sessionId: 'call-1', callId: 'call-1', elicitId: 'book_train/pickSeat/call-1/5', result: { action: 'accept', content: { row: 2, seat: 'A' } } },
    ])
    expect(card(chat, 'call-1')).toMatchObject({ status: 'completed', result: { value: confirmation } })
  })

  it('takes a click on a question’s component as one change of the chat, the answer kept once, shown again after a reload', async () => {
    const storage = memoryStorage()
    const writes: string[] = []
    const counted = { ...storage, setItem: (key: string, value: string) => (writes.push(value), storage.setItem(key, value)) }
    const server = createServer()
    server.stream(firstTurn)
    const before = start({ registry, fetch: server.fetch, persistence: createLocalPersistence({ storage: counted }) })
    await before.send('Book a train from Paris to Lyon')
    server.stream([], { hold: true })
    writes.length = 0
    const answer = { action: 'accept' as const, content: { trainId: trains[0].id } }
    rendersOf(before, 'call-1')[0].respond(answer)
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    // One write of the chat, as it went out: the question submitted, its answer the result, nothing else stored.
    expect(writes).toHaveLength(1)
    const written = JSON.parse(writes[0]!) as { status: string; entries: ToolCallEntry[] }
    expect(written.status).toBe('streaming')
    expect(written.entries.find((entry) => entry.kind === 'tool')?.elicitations[0]).toMatchObject({ status: 'submitted', answers: [], result: answer })
    before.detach()

    // A new page: the plugin's browser half arrives with the restored question, as a chunk does.
    const reloaded = createPluginRegistry([{ toolName: 'book_train', load: () => import('@/fixtures/book-train/plugin').then((module) => module.bookTrainPlugin) }])
    const after = await startRestored({ registry: reloaded, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    await vi.waitFor(() => expect(rendersOf(after, 'call-1')).toHaveLength(1))
    expect(rendersOf(after, 'call-1')[0]).toMatchObject({ props: { Component: TrainList }, response: { value: answer } })
  })

  it('answers several tool calls of one turn in one request', async () => {
    const server = createServer()
    const call = (id: string) =>
      elicitEvent({ callId: id, toolName: 'book_train', key: 'pickTrain', seq: 3, message: 'Pick', context: { from: 'Paris', to: 'Lyon', trains } })
    server.stream([
      {
        type: 'tool_calls',
        calls: [
          { id: 'call-a', name: 'book_train', arguments: {} },
          { id: 'call-b', name: 'book_train', arguments: {} },
        ],
      },
      call('call-a'),
      call('call-b'),
      { type: 'conversation_state', messages: [] },
    ])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book two')
    rendersOf(chat, 'call-b')[0].respond({ action: 'decline' })
    await Promise.resolve()
    expect(server.requests).toHaveLength(1)
    expect(chat.getSnapshot().state.status).toBe('awaiting_input')

    server.stream([{ type: 'conversation_state', messages: [] }])
    rendersOf(chat, 'call-a')[0].respond({ action: 'accept', content: { trainId: trains[1].id } })
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    expect(server.requests[1].pluginElicitResponses?.map((response) => [response.callId, response.result.action])).toEqual([
      ['call-a', 'accept'],
      ['call-b', 'decline'],
    ])
  })

  it('brings a waiting elicitation back after a reload, with earlier answers replayed', async () => {
    const storage = memoryStorage()
    const tool = createMcpTool('two_step')
      .elicits({ confirm: z.object({ first: z.string(), second: z.string() }) })
      .execute(function* () {
        return 'unused'
      })
    function Ask(_props: ElicitComponentProps<string> & { question: string }) {
      return null
    }
    const twoStep = makePlugin<typeof tool>('two_step')
      .onElicit({
        *confirm(_request, ctx) {
          const first = yield* ctx.render(Ask, { question: 'first?' })
          const second = yield* ctx.render(Ask, { question: 'second?' })
          return { action: 'accept', content: { first, second } }
        },
      })
      .build()
    const twoStepRegistry = createPluginRegistry([twoStep])
    const server = createServer()
    server.stream([
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'two_step', arguments: {} }] },
      elicitEvent({ callId: 'call-1', toolName: 'two_step', key: 'confirm', seq: 1, message: 'Confirm twice', context: {} }),
      { type: 'conversation_state', messages: [{ role: 'user', content: 'go' }] },
    ])
    const before = start({ registry: twoStepRegistry, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    await before.send('go')
    rendersOf(before, 'call-1')[0].respond('yes')
    expect(rendersOf(before, 'call-1')).toHaveLength(2)
    before.detach() // the tab goes away

    const after = await startRestored({ registry: twoStepRegistry, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    const { state } = after.getSnapshot()
    expect(state.status).toBe('awaiting_input')
    expect(state.messages).toEqual([{ role: 'user', content: 'go' }])
    const [first, second] = rendersOf(after, 'call-1')
    expect(first.response).toEqual({ value: 'yes' })
    expect(second.props).toEqual({ question: 'second?' })
    expect(second.response).toBeUndefined()

    server.stream([{ type: 'conversation_state', messages: [] }])
    second.respond('sure')
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    expect(server.requests[1]).toMatchObject({
      messages: [{ role: 'user', content: 'go' }],
      pluginElicitResponses: [{ result: { action: 'accept', content: { first: 'yes', second: 'sure' } } }],
    })
  })

  it('shows answered elicitations again after a reload, when the plugin arrives only later', async () => {
    const storage = memoryStorage()
    const tool = createMcpTool('two_step')
      .elicits({ confirm: z.object({ first: z.string(), second: z.string() }) })
      .execute(function* () {
        return 'unused'
      })
    function Ask(_props: ElicitComponentProps<string> & { question: string }) {
      return null
    }
    const twoStep = makePlugin<typeof tool>('two_step')
      .onElicit({
        *confirm(_request, ctx) {
          const first = yield* ctx.render(Ask, { question: 'first?' })
          const second = yield* ctx.render(Ask, { question: 'second?' })
          return { action: 'accept', content: { first, second } }
        },
      })
      .build()
    const server = createServer()
    server.stream([
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'two_step', arguments: {} }] },
      elicitEvent({ callId: 'call-1', toolName: 'two_step', key: 'confirm', seq: 1, message: 'Confirm twice', context: {} }),
      { type: 'conversation_state', messages: [{ role: 'user', content: 'go' }] },
    ])
    const before = start({ registry: createPluginRegistry([twoStep]), fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    await before.send('go')
    server.stream([
      { type: 'tool_result', id: 'call-1', name: 'two_step', content: 'done' },
      {
        type: 'conversation_state',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'two_step', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call-1', content: 'done' },
        ],
      },
      { type: 'complete', text: '' },
    ])
    rendersOf(before, 'call-1')[0].respond('yes')
    rendersOf(before, 'call-1')[1].respond('sure')
    await vi.waitFor(() => expect(before.getSnapshot().state.status).toBe('idle'))
    expect(card(before, 'call-1').elicitations[0].status).not.toBe('waiting')
    before.detach()

    // After the reload the plugin's code comes later, as a chunk does.
    let arrive!: () => void
    const arrived = new Promise<void>((resolve) => (arrive = resolve))
    const lazy = createPluginRegistry([{ toolName: 'two_step', load: () => arrived.then(() => twoStep) }])
    const after = await startRestored({ registry: lazy, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    expect(rendersOf(after, 'call-1')).toEqual([])
    arrive()
    await vi.waitFor(() => expect(rendersOf(after, 'call-1')).toHaveLength(2))
    expect(rendersOf(after, 'call-1').map((rendered) => rendered.response)).toEqual([{ value: 'yes' }, { value: 'sure' }])
  })

  it('stops waiting sessions one request at a time and halts their handlers', async () => {
    const server = createServer()
    server.stream([
      {
        type: 'tool_calls',
        calls: [
          { id: 'call-a', name: 'book_train', arguments: {} },
          { id: 'call-b', name: 'book_train', arguments: {} },
        ],
      },
      elicitEvent({ callId: 'call-a', toolName: 'book_train', key: 'pickTrain', seq: 3, message: 'Pick', context: { trains } }),
      elicitEvent({ callId: 'call-b', toolName: 'book_train', key: 'pickTrain', seq: 3, message: 'Pick', context: { trains } }),
      { type: 'conversation_state', messages: [{ role: 'user', content: 'two' }] },
    ])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('two')
    const [trainList] = rendersOf(chat, 'call-a')

    const afterFirst: Message[] = [{ role: 'user', content: 'two' }, { role: 'tool', tool_call_id: 'call-a', content: 'Error: stopped' }]
    server.stream([
      { type: 'tool_error', id: 'call-a', name: 'book_train', message: 'Stopped by the user' },
      { type: 'conversation_state', messages: afterFirst },
    ])
    server.stream([{ type: 'conversation_state', messages: [] }])
    await chat.stop()

    expect(server.requests.slice(1)).toEqual([
      { messages: [{ role: 'user', content: 'two' }], pluginAbort: { sessionId: 'call-a', reason: 'Stopped by the user' } },
      { messages: afterFirst, pluginAbort: { sessionId: 'call-b', reason: 'Stopped by the user' } },
    ])
    expect(card(chat, 'call-a').status).toBe('stopped')
    expect(card(chat, 'call-b').status).toBe('stopped')
    expect(chat.getSnapshot().state.status).toBe('idle')
    // The halted handler no longer takes answers.
    trainList.respond({ action: 'decline' })
    expect(card(chat, 'call-a').elicitations[0].answers).toEqual([])
  })

  it('aborts the request in flight on stop and keeps the partial answer', async () => {
    const server = createServer()
    server.stream([{ type: 'text', content: 'Once upon a' }], { hold: true })
    const chat = start({ registry, fetch: server.fetch })
    const sending = chat.send('Tell me a story')
    await vi.waitFor(() => expect(chat.getSnapshot().state.entries).toHaveLength(2))
    await chat.stop()
    await sending
    expect(server.signals[0].aborted).toBe(true)
    const { state } = chat.getSnapshot()
    expect(state.status).toBe('idle')
    // Shown, but not sent back: only the server writes (and signs) assistant messages.
    expect(state.messages).toEqual([{ role: 'user', content: 'Tell me a story' }])
    expect(state.entries.at(-1)).toMatchObject({ kind: 'assistant', text: 'Once upon a' })
    expect(server.requests).toHaveLength(1)
  })

  it('shows the message of a refused request', async () => {
    const server = createServer()
    server.next(() => Response.json({ error: { code: 'INVALID_REQUEST', message: 'The conversation is too long.' } }, { status: 400 }))
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('hi')
    expect(chat.getSnapshot().state).toMatchObject({ status: 'error', error: 'The conversation is too long.', messages: [] })
  })

  it('answers "cancel" and says why when no plugin handles the tool', async () => {
    const server = createServer()
    server.stream([
      elicitEvent({ callId: 'call-x', toolName: 'unknown_tool', key: 'ask', seq: 1, message: 'Ask', context: {} }),
      { type: 'conversation_state', messages: [] },
    ])
    server.stream([{ type: 'conversation_state', messages: [] }])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('x')
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    expect(server.requests[1].pluginElicitResponses?.[0].result).toEqual({ action: 'cancel' })
    expect(card(chat, 'call-x').elicitations[0].error).toBe('No plugin is registered for tool "unknown_tool".')
  })

  it('gives a component the question’s choices, and again after a reload', async () => {
    const storage = memoryStorage()
    const choices = { trainId: trains.map((train) => ({ value: train.id, title: train.number })) }
    const server = createServer()
    server.stream([...firstTurn.slice(0, 3), { ...firstTurn[3], choices } as ChatEvent, firstTurn[4]])
    const before = start({ registry, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    await before.send('Book a train from Paris to Lyon')
    expect(rendersOf(before, 'call-1')[0]?.props).toMatchObject({ choices })
    before.detach()

    const after = await startRestored({ registry, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    expect(rendersOf(after, 'call-1')[0]?.props).toMatchObject({ message: 'Select your train from Paris to Lyon:', choices })
  })

  it('runs the handler again when the server rejects an answer', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')
    server.stream([
      { type: 'plugin_elicit_rejected', sessionId: 'call-1', elicitId: 'book_train/pickTrain/call-1/3', message: 'trainId: Too small' },
      firstTurn[3],
      firstTurn[4],
    ])
    rendersOf(chat, 'call-1')[0].respond({ action: 'accept', content: { trainId: '' } })
    await vi.waitFor(() => expect(card(chat, 'call-1').elicitations[0].attempt).toBe(2))
    const retry = rendersOf(chat, 'call-1')
    expect(retry).toHaveLength(1)
    expect(retry[0].response).toBeUndefined()
    expect(card(chat, 'call-1').elicitations[0].rejection).toEqual({ message: 'trainId: Too small' })
  })

  it('starts a new chat: clears the state and the storage, and frees waiting sessions', async () => {
    const storage = memoryStorage()
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch, persistence: createLocalPersistence({ storage }) })
    await chat.send('Book a train from Paris to Lyon')
    server.stream([{ type: 'conversation_state', messages: [] }])
    await chat.newChat()
    expect(chat.getSnapshot().state).toEqual({ messages: [], entries: [], status: 'idle' })
    expect(chat.getSnapshot().renders).toEqual({})
    expect(createLocalPersistence({ storage }).load()).toBeUndefined()
    expect(server.requests[1].pluginAbort).toEqual({ sessionId: 'call-1', reason: 'Stopped by the user' })
  })

  it('treats a reload during a stream as an interruption', async () => {
    const storage = memoryStorage()
    const persistence = createLocalPersistence({ storage })
    persistence.save({
      messages: [{ role: 'user', content: 'Hi' }],
      entries: [
        { kind: 'user', id: 'user-0', text: 'Hi' },
        { kind: 'assistant', id: 'assistant-1', text: 'Hel', streaming: true },
      ],
      status: 'streaming',
      turn: { kind: 'message', text: 'Hel', textReceived: true, receivedState: false, elicitIds: [] },
    })
    const chat = await startRestored({ registry, persistence })
    expect(chat.getSnapshot().state).toMatchObject({
      status: 'idle',
      messages: [{ role: 'user', content: 'Hi' }],
      entries: [{ kind: 'user' }, { kind: 'assistant', text: 'Hel', streaming: false }],
    })
    expect(chat.getSnapshot().ready).toBe(true)
  })
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
