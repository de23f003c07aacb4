import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import { createPluginRegistry } from '../plugins'
import { TrainList } from '@/fixtures/book-train/components/TrainList'
import type { ChatState } from './chat-state'
import { renderKey } from './handler-tasks'
import { card, createServer, detachAll, rendersOf, start } from './testing/chat-harness'
import { elicitEvent } from '@/fixtures/elicit-event'
import { createTwoStepPlugin, twoStepTurn } from '@/fixtures/two-step/plugin'
import { bookingCall, firstTurn, registry, seatTurn, trains } from '@/fixtures/book-train/testing/chat-turns'

afterEach(detachAll)
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
    expect(trainList.answered).toBe(false)

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
    expect(chat.getSnapshot().renders[renderKey(trainElicitation)][0]).toMatchObject({
      answered: true,
      response: { action: 'accept', content: { trainId: trains[0].id } },
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

  it('takes a click on a question’s component as one change of the chat, the answer kept once', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')
    server.stream([], { hold: true })
    const changes: ChatState[] = []
    let last = chat.getSnapshot().state
    chat.subscribe(() => {
      const { state } = chat.getSnapshot()
      if (state !== last) changes.push((last = state))
    })
    const answer = { action: 'accept' as const, content: { trainId: trains[0].id } }
    rendersOf(chat, 'call-1')[0].respond(answer)
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    // One change of the chat, as it went out: the question submitted, its answer the result, nothing else kept.
    expect(changes).toHaveLength(1)
    const [change] = changes
    expect(change!.status).toBe('streaming')
    const booking = change!.entries.find((entry) => entry.kind === 'tool')
    expect(booking?.kind === 'tool' && booking.elicitations[0]).toMatchObject({ status: 'submitted', answers: [], result: answer })
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

  it('brings a waiting elicitation back when attached again, with earlier answers replayed', async () => {
    const server = createServer()
    server.stream(twoStepTurn)
    const chat = start({ registry: createPluginRegistry([createTwoStepPlugin()]), fetch: server.fetch })
    await chat.send('go')
    rendersOf(chat, 'call-1')[0].respond('yes')
    expect(rendersOf(chat, 'call-1')).toHaveLength(2)
    // The component goes away and comes back (React's development double mount, a remount): the handler starts again.
    chat.detach()
    expect(chat.getSnapshot().renders).toEqual({})
    chat.attach()
    await vi.waitFor(() => expect(rendersOf(chat, 'call-1')).toHaveLength(2))
    const { state } = chat.getSnapshot()
    expect(state.status).toBe('awaiting_input')
    expect(state.messages).toEqual([{ role: 'user', content: 'go' }])
    const [first, second] = rendersOf(chat, 'call-1')
    expect(first).toMatchObject({ answered: true, response: 'yes' })
    expect(second.props).toEqual({ question: 'second?' })
    expect(second.answered).toBe(false)

    server.stream([{ type: 'conversation_state', messages: [] }])
    second.respond('sure')
    await vi.waitFor(() => expect(server.requests).toHaveLength(2))
    expect(server.requests[1]).toMatchObject({
      messages: [{ role: 'user', content: 'go' }],
      pluginElicitResponses: [{ result: { action: 'accept', content: { first: 'yes', second: 'sure' } } }],
    })
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

  it('gives a component the question’s choices', async () => {
    const choices = { trainId: trains.map((train) => ({ value: train.id, title: train.number })) }
    const server = createServer()
    server.stream([...firstTurn.slice(0, 3), { ...firstTurn[3], choices } as ChatEvent, firstTurn[4]])
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')
    expect(rendersOf(chat, 'call-1')[0]?.props).toMatchObject({ message: 'Select your train from Paris to Lyon:', choices })
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
    expect(retry[0].answered).toBe(false)
    expect(card(chat, 'call-1').elicitations[0].rejection).toEqual({ message: 'trainId: Too small' })
  })

  it('starts a new chat: clears the state, and frees waiting sessions', async () => {
    const server = createServer()
    server.stream(firstTurn)
    const chat = start({ registry, fetch: server.fetch })
    await chat.send('Book a train from Paris to Lyon')
    server.stream([{ type: 'conversation_state', messages: [] }])
    await chat.newChat()
    expect(chat.getSnapshot().state).toEqual({ messages: [], entries: [], status: 'idle' })
    expect(chat.getSnapshot().renders).toEqual({})
    expect(server.requests[1].pluginAbort).toEqual({ sessionId: 'call-1', reason: 'Stopped by the user' })
  })
})
