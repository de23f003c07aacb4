import { describe, expect, it } from 'vitest'
import type { ChatEvent } from '../protocol/events'
import type { Message } from '../protocol/messages'
import {
  initialChatState,
  openElicitations,
  reduceChat,
  type ChatAction,
  type ChatState,
} from './chat-state'
import type { ToolCallEntry } from './display-entries'

function run(actions: ChatAction[], state: ChatState = initialChatState): ChatState {
  return actions.reduce(reduceChat, state)
}

function tool(state: ChatState, callId = 'call-1'): ToolCallEntry {
  const entry = state.entries.find((candidate) => candidate.kind === 'tool' && candidate.callId === callId)
  if (!entry || entry.kind !== 'tool') throw new Error(`no card for ${callId}`)
  return entry
}

const toolCallMessage: Message = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'book_flight', arguments: '{"from":"NYC","destination":"LAX"}' } }],
}

const elicitRequest = (overrides: Partial<Extract<ChatEvent, { type: 'plugin_elicit_request' }>> = {}): ChatEvent => ({
  type: 'plugin_elicit_request',
  sessionId: 'call-1',
  callId: 'call-1',
  toolName: 'book_flight',
  elicitId: 'book_flight/pickFlight/call-1/3',
  key: 'pickFlight',
  message: 'Select your flight',
  context: {},
  schema: { type: 'object' },
  ...overrides,
})

/** A turn that ends waiting for the user to pick a flight. */
const bookingTurn: ChatAction[] = [
  { type: 'local/send', text: 'Book a flight from NYC to LAX' },
  { type: 'text', content: 'Let me ' },
  { type: 'text', content: 'search.' },
  { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }] },
  { type: 'plugin_progress', sessionId: 'call-1', callId: 'call-1', message: 'Searching', progress: 0.1 },
  { type: 'plugin_log', sessionId: 'call-1', callId: 'call-1', level: 'info', message: 'Found 3 flights' },
  elicitRequest(),
  { type: 'conversation_state', messages: [{ role: 'user', content: 'Book a flight from NYC to LAX' }, toolCallMessage] },
  { type: 'local/stream_end' },
]

describe('reduceChat', () => {
  it('adds the user message and streams assistant text into one entry', () => {
    const state = run([
      { type: 'local/send', text: 'Hi' },
      { type: 'text', content: 'Hel' },
      { type: 'text', content: 'lo' },
    ])
    expect(state.status).toBe('streaming')
    expect(state.messages).toEqual([{ role: 'user', content: 'Hi' }])
    expect(state.entries).toEqual([
      { kind: 'user', id: 'user-0', text: 'Hi' },
      { kind: 'assistant', id: 'assistant-1', text: 'Hello', streaming: true },
    ])
  })

  it('replaces the conversation with conversation_state and goes idle at the end', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]
    const state = run([
      { type: 'local/send', text: 'Hi' },
      { type: 'text', content: 'Hello' },
      { type: 'complete', text: 'Hello' },
      { type: 'conversation_state', messages },
      { type: 'local/stream_end' },
    ])
    expect(state.messages).toEqual(messages)
    expect(state.status).toBe('idle')
    expect(state.turn).toBeUndefined()
    expect(state.entries[1]).toMatchObject({ kind: 'assistant', text: 'Hello', streaming: false })
  })

  it('shows the complete text when no text event came', () => {
    const state = run([{ type: 'local/send', text: 'Hi' }, { type: 'complete', text: 'All done.' }])
    expect(state.entries[1]).toMatchObject({ kind: 'assistant', text: 'All done.', streaming: false })
  })

  it('opens a tool card with progress, logs and a waiting elicitation', () => {
    const state = run(bookingTurn)
    const card = tool(state)
    expect(state.status).toBe('awaiting_input')
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool'])
    expect(state.entries[1]).toMatchObject({ text: 'Let me search.', streaming: false })
    expect(card).toMatchObject({
      name: 'book_flight',
      arguments: { from: 'NYC', destination: 'LAX' },
      status: 'awaiting_input',
      progress: { message: 'Searching', value: 0.1 },
      logs: [{ level: 'info', message: 'Found 3 flights' }],
    })
    expect(card.elicitations).toEqual([
      expect.objectContaining({ question: expect.objectContaining({ elicitId: 'book_flight/pickFlight/call-1/3' }), attempt: 1, status: 'waiting', answers: [] }),
    ])
    expect(openElicitations(state)).toHaveLength(1)
  })

  it('keeps a question’s choices, and takes the new attempt’s when it is asked again', () => {
    const first = { flightId: [{ value: 'SH-1', title: 'SH 1 · 08:00 → 11:30 · $299' }] }
    const asked = run([...bookingTurn.slice(0, -3), elicitRequest({ choices: first }), ...bookingTurn.slice(-2)])
    expect(tool(asked).elicitations[0]?.question.choices).toEqual(first)
    const again = run([elicitRequest({ message: 'Select your flight (again)' })], asked)
    expect(tool(again).elicitations[0]).toMatchObject({ attempt: 2, question: { message: 'Select your flight (again)' } })
    // The new attempt has none: the first attempt's are not kept.
    expect(tool(again).elicitations[0]?.question.choices).toBeUndefined()
  })

  it('keeps what says a question’s answer in its form’s words, and what it starts from', () => {
    const form = { fieldTitles: { seat: 'Seat' }, choiceAnswers: { seat: { '10A': { row: 10, seat: 'A' } } }, defaults: { row: 10, seat: 'A' } }
    const asked = run([...bookingTurn.slice(0, -3), elicitRequest(form), ...bookingTurn.slice(-2)])
    expect(tool(asked).elicitations[0]?.question).toMatchObject(form)
  })

  it('keeps a call’s title when its tool gives one', () => {
    const state = run([
      { type: 'local/send', text: 'x' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: {}, title: 'NYC → LAX' }, { id: 'call-2', name: 'note', arguments: {} }] },
    ])
    expect(state.entries.filter((entry) => entry.kind === 'tool').map((entry) => entry.title)).toEqual(['NYC → LAX', undefined])
  })

  it('parses tool call arguments given as a JSON string', () => {
    const state = run([
      { type: 'local/send', text: 'x' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: '{"from":"NYC"}' }] },
    ])
    expect(tool(state).arguments).toEqual({ from: 'NYC' })
  })

  it('sends the only question’s answer at once: one action, the answer kept once, as the result', () => {
    const answer = { action: 'accept' as const, content: { flightId: 'SH-1' } }
    const sent = reduceChat(run(bookingTurn), { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: answer })
    expect(sent.status).toBe('streaming')
    expect(tool(sent).elicitations[0]).toMatchObject({ status: 'submitted', answers: [], result: answer })
    expect(sent.turn).toMatchObject({ kind: 'responses', elicitIds: ['book_flight/pickFlight/call-1/3'] })
  })

  it('keeps the answers of a flow of several steps as it goes, not those of an attempt gone by', () => {
    const progressed = run(
      [
        { type: 'local/answer', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [true] },
        { type: 'local/answer', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 2, answers: ['stale attempt'] },
      ],
      run(bookingTurn),
    )
    expect(tool(progressed).elicitations[0]).toMatchObject({ status: 'waiting', answers: [true] })
    expect(progressed.status).toBe('awaiting_input')
    const stale: ChatAction = { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 2, answers: [], result: { action: 'decline' } }
    expect(reduceChat(progressed, stale)).toBe(progressed)
  })

  it('waits for every question of the turn, then sends their answers together', () => {
    const second = elicitRequest({ sessionId: 'call-2', callId: 'call-2', elicitId: 'book_flight/pickFlight/call-2/3' })
    const asked = run([...bookingTurn.slice(0, -3), elicitRequest(), second, ...bookingTurn.slice(-2)])
    const first = reduceChat(asked, { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } })
    expect(first.status).toBe('awaiting_input')
    expect(first.turn).toBeUndefined()
    expect(openElicitations(first).map((elicitation) => elicitation.status)).toEqual(['answered', 'waiting'])
    const both = reduceChat(first, { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-2/3', attempt: 1, answers: [], result: { action: 'cancel' } })
    expect(both.status).toBe('streaming')
    expect(both.turn).toMatchObject({ kind: 'responses', elicitIds: ['book_flight/pickFlight/call-1/3', 'book_flight/pickFlight/call-2/3'] })
    expect(openElicitations(both)).toEqual([])
  })

  it('sends an answer given while the turn still streams once the turn ends', () => {
    const streaming = run(bookingTurn.slice(0, -2))
    const answered = reduceChat(streaming, { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } })
    expect(answered.turn?.kind).toBe('message')
    expect(tool(answered).elicitations[0]?.status).toBe('answered')
    const ended = run(bookingTurn.slice(-2), answered)
    expect(ended.status).toBe('streaming')
    expect(ended.turn).toMatchObject({ kind: 'responses', elicitIds: ['book_flight/pickFlight/call-1/3'] })
    expect(tool(ended).elicitations[0]?.status).toBe('submitted')
  })

  it('asks again after a rejection, keeping the rejection to show', () => {
    const submitted = run(
      [
        { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'accept', content: {} } },
        { type: 'plugin_elicit_rejected', sessionId: 'call-1', elicitId: 'book_flight/pickFlight/call-1/3', message: 'flightId is required' },
        elicitRequest({ message: 'Select your flight (again)' }),
        { type: 'conversation_state', messages: [] },
        { type: 'local/stream_end' },
      ],
      run(bookingTurn),
    )
    const elicitation = tool(submitted).elicitations[0]
    expect(tool(submitted).elicitations).toHaveLength(1)
    expect(elicitation).toMatchObject({
      attempt: 2,
      status: 'waiting',
      answers: [],
      question: { message: 'Select your flight (again)' },
      rejection: { message: 'flightId is required' },
    })
    expect(elicitation.result).toBeUndefined()
    expect(submitted.status).toBe('awaiting_input')
  })

  it('completes a card with its parsed result', () => {
    const state = run([
      ...bookingTurn,
      { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } },
      { type: 'plugin_progress', sessionId: 'call-1', callId: 'call-1', message: 'Done', progress: 7 },
      { type: 'tool_result', id: 'call-1', name: 'book_flight', content: '{"status":"cancelled"}' },
      { type: 'text', content: 'Nothing was booked.' },
      { type: 'conversation_state', messages: [] },
      { type: 'local/stream_end' },
    ])
    expect(tool(state)).toMatchObject({
      status: 'completed',
      progress: { message: 'Done', value: 1 },
      result: { text: '{"status":"cancelled"}', value: { status: 'cancelled' } },
    })
    expect(state.entries.at(-1)).toMatchObject({ kind: 'assistant', text: 'Nothing was booked.' })
    expect(state.status).toBe('idle')
  })

  it('keeps a result that is not JSON as text', () => {
    const state = run([{ type: 'tool_result', id: 'call-9', name: 'echo', content: 'plain text' }])
    expect(tool(state, 'call-9')).toMatchObject({ name: 'echo', status: 'completed', result: { text: 'plain text', value: undefined } })
  })

  it('fails a card on tool_error and on plugin_session_error', () => {
    const errored = run([...bookingTurn, { type: 'tool_error', id: 'call-1', name: 'book_flight', message: 'No flights' }])
    expect(tool(errored)).toMatchObject({ status: 'failed', error: 'No flights' })
    expect(tool(errored).elicitations[0].status).toBe('closed')
    expect(errored.status).toBe('awaiting_input') // settles only when the stream ends

    const lost = run([
      ...bookingTurn,
      { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } },
      { type: 'plugin_session_error', sessionId: 'call-1', callId: 'call-1', error: 'SESSION_NOT_FOUND', message: 'Please retry.' },
      { type: 'conversation_state', messages: [] },
      { type: 'local/stream_end' },
    ])
    expect(tool(lost)).toMatchObject({ status: 'failed', error: 'The plugin session was lost: Please retry.' })
    expect(lost.status).toBe('idle')
  })

  it('stops a card on plugin_session_error SESSION_ABORTED (a Stop elsewhere, an operator, the idle time-out), saying why', () => {
    const state = run([
      ...bookingTurn,
      { type: 'local/call_ended', event: { type: 'plugin_session_error', sessionId: 'call-1', callId: 'call-1', error: 'SESSION_ABORTED', message: 'Stopped by the user' } },
    ])
    expect(tool(state)).toMatchObject({ status: 'stopped', error: 'The plugin session was stopped: Stopped by the user' })
    expect(tool(state).elicitations.map((elicitation) => elicitation.status)).toEqual(['stopped'])
    expect(state.status).toBe('idle')
  })

  it('shows a turn error and fails the cards still running', () => {
    const state = run([
      { type: 'local/send', text: 'x' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: {} }] },
      { type: 'error', message: 'Model unavailable', code: 'MODEL_ERROR' },
      { type: 'conversation_state', messages: [{ role: 'user', content: 'x' }] },
      { type: 'local/stream_end' },
    ])
    expect(state.status).toBe('error')
    expect(state.error).toBe('Model unavailable')
    expect(tool(state)).toMatchObject({ status: 'failed', error: 'Model unavailable' })
  })

  it('stops waiting sessions', () => {
    const state = run([...bookingTurn, { type: 'local/stop_sessions', sessionIds: ['call-1'] }])
    expect(tool(state).status).toBe('stopped')
    expect(tool(state).elicitations[0].status).toBe('stopped')
    expect(state.status).toBe('idle')

    const afterAbort = run(
      [
        { type: 'local/abort_start', sessionId: 'call-1' },
        { type: 'tool_error', id: 'call-1', name: 'book_flight', message: 'Stopped by the user' },
        { type: 'conversation_state', messages: [] },
        { type: 'local/stream_end' },
      ],
      state,
    )
    expect(tool(afterAbort).status).toBe('stopped')
    expect(tool(afterAbort).error).toBeUndefined()
    expect(afterAbort.status).toBe('idle')
  })

  it('keeps the conversation as the server signed it when a turn is interrupted: the partial text is shown, not sent', () => {
    const state = run([
      { type: 'local/send', text: 'Tell me' },
      { type: 'text', content: 'Once upon' },
      { type: 'local/interrupted', reason: 'Stopped by the user.' },
    ])
    expect(state.messages).toEqual([{ role: 'user', content: 'Tell me' }])
    expect(state.entries[1]).toMatchObject({ kind: 'assistant', text: 'Once upon' })
    expect(state.status).toBe('idle')
    expect(state.entries[1]).toMatchObject({ streaming: false })
  })

  it('leaves dangling tool calls for the server to close, and cancels cards, when an answer request is interrupted', () => {
    const state = run([
      ...bookingTurn,
      { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } },
      { type: 'local/interrupted', reason: 'Stopped by the user.' },
    ])
    expect(state.messages.at(-1)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call-1' }] })
    expect(tool(state).status).toBe('cancelled')
    expect(state.status).toBe('idle')
  })

  it('treats a stream that ends without conversation_state as failed', () => {
    const state = run([
      { type: 'local/send', text: 'x' },
      { type: 'text', content: 'Part' },
      { type: 'local/stream_end' },
    ])
    expect(state.status).toBe('error')
    expect(state.error).toBe('The answer ended early.')
    expect(state.messages).toEqual([{ role: 'user', content: 'x' }])
  })

  it('sends tool calls left without a result as they are before a new message (the server closes them)', () => {
    const state = run([
      { type: 'conversation_state', messages: [{ role: 'user', content: 'Book' }, toolCallMessage] },
      { type: 'local/send', text: 'Never mind' },
    ])
    expect(state.messages).toEqual([
      { role: 'user', content: 'Book' },
      toolCallMessage,
      { role: 'user', content: 'Never mind' },
    ])
  })

  it('drops the unsent user message when the request fails', () => {
    const previous: Message[] = [{ role: 'user', content: 'earlier' }]
    const state = run([
      { type: 'conversation_state', messages: previous },
      { type: 'local/send', text: 'new' },
      { type: 'local/request_failed', message: 'Invalid request' },
    ])
    expect(state.messages).toEqual(previous)
    expect(state.status).toBe('error')
    expect(state.error).toBe('Invalid request')
    expect(state.entries.at(-1)).toMatchObject({ kind: 'user', text: 'new' })
  })

  it('asks again when the request carrying answers fails', () => {
    const state = run([
      ...bookingTurn,
      { type: 'local/answered', elicitId: 'book_flight/pickFlight/call-1/3', attempt: 1, answers: [], result: { action: 'decline' } },
      { type: 'local/request_failed', message: 'Server unavailable' },
    ])
    expect(tool(state).elicitations[0]).toMatchObject({ status: 'waiting', attempt: 2, answers: [] })
    expect(state.status).toBe('awaiting_input')
    expect(state.error).toBe('Server unavailable')
  })

  it('ignores events it does not know and plugin events for unknown calls', () => {
    const state = run(bookingTurn)
    expect(reduceChat(state, { type: 'future_event' } as unknown as ChatAction)).toBe(state)
    expect(reduceChat(state, { type: 'plugin_log', sessionId: 'x', callId: 'x', level: 'info', message: 'm' })).toBe(state)
  })
})

describe('external MCP tool calls', () => {
  const external = { server: 'basic-react', tool: 'get-time', uiResourceUri: 'ui://basic-react/app.html' }
  const callResult = { content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' }, _meta: { ok: 1 } }

  it('keep where the call went (server, tool, MCP App) and the whole CallToolResult', () => {
    const state = run([
      { type: 'local/send', text: '/basic-react__get-time {}' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'basic-react__get-time', arguments: { zone: 'UTC' }, external }] },
      { type: 'tool_result', id: 'call-1', name: 'basic-react__get-time', content: JSON.stringify(callResult) },
    ])
    expect(tool(state)).toMatchObject({ external, arguments: { zone: 'UTC' }, status: 'completed', result: { value: callResult } })
  })

  it('a result with isError is a failed call that keeps its result; a plugin result is never read so', () => {
    const failed = run([
      { type: 'local/send', text: '/x__y {}' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'x__y', arguments: {}, external: { server: 'x', tool: 'y' } }] },
      { type: 'tool_result', id: 'call-1', name: 'x__y', content: JSON.stringify({ content: [], isError: true }) },
    ])
    expect(tool(failed)).toMatchObject({ status: 'failed', result: { value: { isError: true } } })
    const plugin = run([
      { type: 'local/send', text: 'hi' },
      { type: 'tool_calls', calls: [{ id: 'call-1', name: 'book_flight', arguments: {} }] },
      { type: 'tool_result', id: 'call-1', name: 'book_flight', content: JSON.stringify({ isError: true }) },
    ])
    expect(tool(plugin).status).toBe('completed')
  })

  it('a slash command the browser cannot send is refused with a message, and nothing is sent', () => {
    const state = run([{ type: 'local/refused', message: '/x: the arguments are not valid JSON' }])
    expect(state).toMatchObject({ status: 'error', error: '/x: the arguments are not valid JSON', entries: [], messages: [] })
  })
})

describe('a message refused for a spent model budget', () => {
  const sent = reduceChat(initialChatState, { type: 'local/send', text: 'Book a train to Lyon' })
  const refused = reduceChat(sent, { type: 'local/request_failed', message: 'You have used today’s model budget.', budgetResetsAt: '2026-11-30T00:00:00.000Z' })

  it('is taken back out of the chat, calmly: no error, the chat idle, its text kept for the composer', () => {
    expect(refused.messages).toEqual([])
    expect(refused.entries).toEqual([])
    expect(refused.status).toBe('idle')
    expect(refused.error).toBeUndefined()
    expect(refused.budgetSpent).toEqual({ resetsAt: '2026-11-30T00:00:00.000Z', text: 'Book a train to Lyon' })
  })

  it('is forgotten by the next send', () => {
    expect(reduceChat(refused, { type: 'local/send', text: 'Again' }).budgetSpent).toBeUndefined()
  })
})
