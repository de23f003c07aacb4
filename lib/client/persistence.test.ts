import { describe, expect, it } from 'vitest'
import { initialChatState, reduceChat, type ChatAction, type ChatState } from './chat-state'
import { CHAT_STORAGE_KEY, createLocalPersistence } from './persistence'

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

const waitingState: ChatState = (
  [
    { type: 'local/send', text: 'Book a flight from NYC to LAX' },
    { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }] },
    { type: 'plugin_progress', sessionId: 'call-1', callId: 'call-1', message: 'Waiting', progress: 0.25 },
    {
      type: 'plugin_elicit_request',
      sessionId: 'call-1',
      callId: 'call-1',
      toolName: 'book_flight',
      elicitId: 'book_flight/pickFlight/call-1/3',
      key: 'pickFlight',
      message: 'Select\n\n--x-model-context: application/json\n{"flights":[]}',
      schema: { type: 'object', 'x-model-context': { flights: [] } },
      choices: { flightId: [{ value: 'SH-1', title: 'SH 1 · 08:00 → 11:30 · $299' }] },
    },
    {
      type: 'local/answer',
      elicitId: 'book_flight/pickFlight/call-1/3',
      attempt: 1,
      answers: [{ action: 'accept', content: { flightId: 'SH-1' } }],
    },
    { type: 'conversation_state', messages: [{ role: 'user', content: 'Book a flight from NYC to LAX' }] },
    { type: 'local/stream_end' },
  ] satisfies ChatAction[]
).reduce(reduceChat, initialChatState)

describe('createLocalPersistence', () => {
  it('keeps the server’s signatures on the conversation, unchanged, across a reload', async () => {
    const sig = 'A'.repeat(43)
    const signed = reduceChat(waitingState, {
      type: 'conversation_state',
      messages: [
        { role: 'user', content: 'Book a flight from NYC to LAX' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'book_flight', arguments: '{}' } }], sig },
      ],
    })
    const storage = memoryStorage()
    createLocalPersistence({ storage }).save(signed)
    expect((await createLocalPersistence({ storage }).load())?.messages.at(-1)).toMatchObject({ role: 'assistant', sig })
  })

  it('restores a waiting elicitation exactly', async () => {
    const storage = memoryStorage()
    const persistence = createLocalPersistence({ storage })
    persistence.save(waitingState)
    expect(storage.items.has(CHAT_STORAGE_KEY)).toBe(true)
    const restored = await persistence.load()
    expect(restored).toEqual(JSON.parse(JSON.stringify(waitingState)))
    expect(restored?.status).toBe('awaiting_input')
    const card = restored?.entries.find((entry) => entry.kind === 'tool')
    expect(card?.kind === 'tool' && card.elicitations[0]?.question.choices).toEqual({ flightId: [{ value: 'SH-1', title: 'SH 1 · 08:00 → 11:30 · $299' }] })
  })

  it('reads a question stored before questions were read on arrival (the event’s fields, its context still encoded) into today’s shape', async () => {
    const storage = memoryStorage()
    const stored = JSON.parse(JSON.stringify(waitingState))
    const card = stored.entries.find((entry: { kind: string }) => entry.kind === 'tool')
    // As a chat stored then holds it: older still, without choices.
    card.elicitations = [
      {
        sessionId: 'call-1',
        callId: 'call-1',
        elicitId: 'book_flight/pickFlight/call-1/3',
        toolName: 'book_flight',
        key: 'pickFlight',
        message: 'Select\n\n--x-model-context: application/json\n{"flights":[]}',
        schema: { type: 'object', 'x-model-context': { flights: [] } },
        attempt: 1,
        status: 'waiting',
        answers: [{ action: 'accept', content: { flightId: 'SH-1' } }],
      },
    ]
    storage.setItem(CHAT_STORAGE_KEY, JSON.stringify(stored))
    const restored = await createLocalPersistence({ storage }).load()
    const expected = JSON.parse(JSON.stringify(waitingState))
    expected.entries.find((entry: { kind: string }) => entry.kind === 'tool').elicitations[0].question.choices = {}
    expect(restored).toEqual(expected)
    const question = restored?.entries.flatMap((entry) => (entry.kind === 'tool' ? entry.elicitations : []))[0]?.question
    expect(question).toMatchObject({ message: 'Select', context: { flights: [] }, id: { callId: 'call-1', seq: 3 } })
  })

  it('returns nothing, at once, when nothing was saved (a first visit loads no checker)', () => {
    expect(createLocalPersistence({ storage: memoryStorage() }).load()).toBeUndefined()
  })

  it.each([
    ['not JSON', '{oops'],
    ['the wrong shape', '{"messages":"no","entries":[],"status":"idle"}'],
    ['an unknown status', JSON.stringify({ ...initialChatState, status: 'dancing' })],
    ['a bad message', JSON.stringify({ ...initialChatState, messages: [{ role: 'robot', content: 'x' }] })],
  ])('drops %s and starts fresh', async (_label, stored) => {
    const storage = memoryStorage()
    storage.setItem(CHAT_STORAGE_KEY, stored)
    expect(await createLocalPersistence({ storage }).load()).toBeUndefined()
    expect(storage.items.has(CHAT_STORAGE_KEY)).toBe(false)
  })

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {
        throw new Error('SecurityError')
      },
    }
    const persistence = createLocalPersistence({ storage: broken })
    expect(() => persistence.save(waitingState)).not.toThrow()
    expect(persistence.load()).toBeUndefined()
    expect(() => persistence.clear()).not.toThrow()
  })

  it('stores no empty chat: saving one removes what was stored', () => {
    const storage = memoryStorage()
    const persistence = createLocalPersistence({ storage })
    persistence.save(waitingState)
    persistence.save(initialChatState)
    expect(storage.items.has(CHAT_STORAGE_KEY)).toBe(false)
    expect(persistence.load()).toBeUndefined()
  })

  it('clears', () => {
    const storage = memoryStorage()
    const persistence = createLocalPersistence({ storage })
    persistence.save(waitingState)
    persistence.clear()
    expect(persistence.load()).toBeUndefined()
  })
})

describe('an external tool call across a reload', () => {
  it('keeps its server, tool, MCP App and whole result', async () => {
    const external = { server: 'basic-react', tool: 'get-time', uiResourceUri: 'ui://basic-react/app.html' }
    const result = { content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' }, isError: false, _meta: { a: 1 } }
    const state = (
      [
        { type: 'local/send', text: '/basic-react__get-time {}' },
        { type: 'tool_calls', calls: [{ id: 'direct.call_1', name: 'basic-react__get-time', arguments: {}, external }] },
        { type: 'tool_result', id: 'direct.call_1', name: 'basic-react__get-time', content: JSON.stringify(result) },
        { type: 'local/stream_end' },
      ] satisfies ChatAction[]
    ).reduce(reduceChat, initialChatState)
    const storage = memoryStorage()
    createLocalPersistence({ storage }).save(state)
    const card = (await createLocalPersistence({ storage }).load())?.entries.find((entry) => entry.kind === 'tool')
    expect(card).toMatchObject({ external, result: { value: result } })
  })
})
