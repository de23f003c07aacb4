import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../models'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import { createChatServer, type ChatServer } from './chat-server'
import { LOST_SESSION_MESSAGE } from './run-turn'
import { createChatTestClient, elicitRequests, eventsOf, textOf, type ChatTestClient } from './testing/chat-test-client'
import type { PluginElicitRequestEvent } from '../protocol/events'

/** The same secret across a restart: the restarted server accepts the conversation the first one signed. */
const secret = 'a-secret-the-engine-tests-share-across-restarts'
let chat: ChatServer
let client: ChatTestClient

beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], secret })
  client = createChatTestClient({ chat })
})
afterEach(() => chat.close())

function contextOf(request: PluginElicitRequestEvent) {
  return request.context
}

function freeSeat(request: PluginElicitRequestEvent) {
  return freeSeats(contextOf(request).seatMap as SeatMap)[0]!
}

async function startBooking(text = 'Book a train from Paris to Lyon') {
  const turn = await client.say(text)
  const [request] = elicitRequests(turn.events)
  if (!request) throw new Error(`no elicitation in ${JSON.stringify(turn.events)}`)
  return { turn, request }
}

describe('one request: a plain answer', () => {
  it('streams text in pieces and returns the conversation', async () => {
    const turn = await client.say('Hello there')
    expect(turn.status).toBe(200)
    expect(eventsOf(turn.events, 'text').length).toBeGreaterThan(1)
    expect(turn.events.at(-2)?.type).toBe('conversation_state')
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete', text: textOf(turn.events) })
    expect(client.messages.at(-1)).toEqual({ role: 'assistant', content: textOf(turn.events), sig: expect.any(String) })
  })
})

describe('three requests: a whole booking', () => {
  it('asks for a train, then a seat, then returns a ticket with a sampled tip', async () => {
    const { turn, request } = await startBooking()
    expect(eventsOf(turn.events, 'tool_calls')[0]?.calls).toEqual([
      { id: request.callId, name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' }, title: 'Paris → Lyon' },
    ])
    expect(eventsOf(turn.events, 'plugin_progress')[0]).toMatchObject({ sessionId: request.sessionId, progress: 0.1 })
    expect(eventsOf(turn.events, 'plugin_log')[0]).toMatchObject({ level: 'info', message: expect.stringContaining('Found 3 trains') })
    expect(request).toMatchObject({ toolName: 'book_train', key: 'pickTrain', sessionId: request.callId })
    // notify, log, notify, then the elicitation: the fourth ctx call.
    expect(request.elicitId).toBe(`book_train/pickTrain/${request.callId}/4`)
    expect(request.message).toMatch(/^Select your train from Paris to Lyon:/)
    const trains = request.context.trains as Train[]
    expect(trains).toHaveLength(3)
    expect(request.schema).toMatchObject({ type: 'object', properties: { trainId: { type: 'string' } } })
    expect(client.messages.at(-1)?.tool_calls?.[0]?.id).toBe(request.callId)

    const second = await client.answer([{ request, result: { action: 'accept', content: { trainId: trains[1]!.id } } }])
    const [seatRequest] = elicitRequests(second.events)
    expect(seatRequest).toMatchObject({ key: 'pickSeat', sessionId: request.sessionId })
    expect(eventsOf(second.events, 'text')).toHaveLength(0)
    expect((contextOf(seatRequest!).train as Train).id).toBe(trains[1]!.id)

    const seat = freeSeat(seatRequest!)
    const third = await client.answer([{ request: seatRequest!, result: { action: 'accept', content: seat } }])
    const [result] = eventsOf(third.events, 'tool_result')
    const ticket = JSON.parse(result!.content)
    expect(ticket).toMatchObject({
      status: 'confirmed',
      ticketNumber: expect.stringMatching(/^TKT-/),
      seat: `${seat.row}${seat.seat}`,
      price: trains[1]!.price,
      train: { id: trains[1]!.id },
    })
    expect(ticket.tip).toContain('Lyon')
    expect(textOf(third.events)).toContain(ticket.ticketNumber)
    expect(third.events.at(-1)?.type).toBe('complete')
    expect(client.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(await chat.listActive()).toEqual([])
  })

  it('keeps a waiting session listed with its tool, status and age', async () => {
    const { request } = await startBooking()
    const [info] = await chat.listActive()
    expect(info).toMatchObject({ id: request.sessionId, toolName: 'book_train', status: 'awaiting_elicit' })
    expect(info!.ageMs).toBeGreaterThanOrEqual(0)
  })
})

describe('two requests: the user says no', () => {
  it('ends the tool cleanly when the train is declined, and the assistant says so', async () => {
    const { request } = await startBooking()
    const turn = await client.answer([{ request, result: { action: 'decline' } }])
    const result = JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)
    expect(result).toMatchObject({ status: 'cancelled', step: 'train' })
    expect(textOf(turn.events)).toMatch(/nothing (was|has been) booked|not booked|no booking/i)
    expect(await chat.listActive()).toEqual([])
  })

  it('ends the tool cleanly when the seat step is cancelled', async () => {
    const { request } = await startBooking()
    const trains = contextOf(request).trains as Train[]
    const second = await client.answer([{ request, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    const turn = await client.answer([{ request: elicitRequests(second.events)[0]!, result: { action: 'cancel' } }])
    expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)).toMatchObject({ status: 'cancelled', step: 'seat' })
    expect(textOf(turn.events).length).toBeGreaterThan(0)
  })
})

describe('several tool calls in one turn', () => {
  it('sends every elicitation and takes the answers together', async () => {
    const first = await client.say('Book trains from Paris to Lyon and from Lyon to Nice')
    const requests = elicitRequests(first.events)
    expect(requests).toHaveLength(2)
    expect(new Set(requests.map((request) => request.sessionId)).size).toBe(2)
    expect(requests.map((request) => contextOf(request).to)).toEqual(['Lyon', 'Nice'])

    const second = await client.answer(
      requests.map((request) => ({
        request,
        result: { action: 'accept' as const, content: { trainId: (contextOf(request).trains as Train[])[0]!.id } },
      })),
    )
    const seats = elicitRequests(second.events)
    expect(seats.map((request) => request.key)).toEqual(['pickSeat', 'pickSeat'])

    const third = await client.answer(seats.map((request) => ({ request, result: { action: 'accept' as const, content: freeSeat(request) } })))
    const results = eventsOf(third.events, 'tool_result').map((event) => JSON.parse(event.content))
    expect(results.map((result) => result.train.to).sort()).toEqual(['Lyon', 'Nice'])
    for (const result of results) expect(textOf(third.events)).toContain(result.ticketNumber)
  })

  it('re-sends a waiting elicitation that the request did not answer, without calling the model', async () => {
    const first = await client.say('Book trains from Paris to Lyon and from Lyon to Nice')
    const [a, b] = elicitRequests(first.events)
    const turn = await client.answer([{ request: a!, result: { action: 'accept', content: { trainId: (contextOf(a!).trains as Train[])[0]!.id } } }])
    const requests = elicitRequests(turn.events)
    expect(requests.map((request) => request.elicitId)).toContain(b!.elicitId)
    expect(requests.find((request) => request.sessionId === a!.sessionId)?.key).toBe('pickSeat')
    expect(eventsOf(turn.events, 'text')).toHaveLength(0)
  })
})

describe('answers that are not right', () => {
  it('rejects content that fails the key schema; the session keeps waiting and then continues', async () => {
    const { request } = await startBooking()
    const turn = await client.answer([{ request, result: { action: 'accept', content: { trainId: 42 } } }])
    expect(eventsOf(turn.events, 'plugin_elicit_rejected')[0]).toMatchObject({
      sessionId: request.sessionId,
      elicitId: request.elicitId,
      issues: [{ path: 'trainId', message: expect.any(String) }],
    })
    expect(elicitRequests(turn.events)[0]?.elicitId).toBe(request.elicitId)
    const trains = contextOf(request).trains as Train[]
    const next = await client.answer([{ request, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    expect(elicitRequests(next.events)[0]?.key).toBe('pickSeat')
  })

  it('re-asks when the train id is well formed but not offered', async () => {
    const { request } = await startBooking()
    const turn = await client.answer([{ request, result: { action: 'accept', content: { trainId: 'XX-000' } } }])
    const [again] = elicitRequests(turn.events)
    expect(again).toMatchObject({ key: 'pickTrain' })
    expect(again!.message).toContain('XX-000 is not one of the offered trains')
  })

  it('refuses a wrong elicitId and a second answer to the same elicitation with 409, losing nothing', async () => {
    const { request } = await startBooking()
    const trains = contextOf(request).trains as Train[]
    const wrong = await client.answer([{ request: { ...request, elicitId: `book_train/pickSeat/${request.callId}/9` }, result: { action: 'decline' } }])
    expect(wrong).toMatchObject({ status: 409, error: { code: 'elicit_mismatch' } })

    const before = client.messages
    const ok = await client.answer([{ request, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    const [seatRequest] = elicitRequests(ok.events)
    const afterFirst = client.messages
    client.messages = before
    const again = await client.answer([{ request, result: { action: 'accept', content: { trainId: trains[1]!.id } } }])
    expect(again).toMatchObject({ status: 409, error: { code: 'elicit_already_answered' } })

    client.messages = afterFirst
    const done = await client.answer([{ request: seatRequest!, result: { action: 'accept', content: freeSeat(seatRequest!) } }])
    expect(JSON.parse(eventsOf(done.events, 'tool_result')[0]!.content).train.id).toBe(trains[0]!.id)
  })
})

describe('sessions that are gone', () => {
  it('reports a lost session, adds the synthetic tool message, and lets the model carry on', async () => {
    const { request } = await startBooking()
    await chat.close()
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], secret })
    const restarted = createChatTestClient({ chat })
    restarted.cookie = client.cookie
    restarted.messages = client.messages
    const turn = await restarted.answer([{ request, result: { action: 'decline' } }])
    expect(eventsOf(turn.events, 'plugin_session_error')[0]).toMatchObject({
      sessionId: request.sessionId,
      callId: request.callId,
      error: 'SESSION_NOT_FOUND',
    })
    expect(restarted.messages).toContainEqual({ role: 'tool', tool_call_id: request.callId, content: LOST_SESSION_MESSAGE, sig: expect.any(String) })
    expect(textOf(turn.events)).toMatch(/fail|lost|retry|error/i)
    expect(turn.events.at(-1)?.type).toBe('complete')
  })

  it('binds a session to the browser that started it', async () => {
    const { request } = await startBooking()
    const stranger = createChatTestClient({ chat })
    stranger.messages = client.messages
    const turn = await stranger.answer([{ request, result: { action: 'decline' } }])
    expect(eventsOf(turn.events, 'plugin_session_error')[0]).toMatchObject({ error: 'SESSION_NOT_FOUND' })
    const owner = await client.answer([{ request, result: { action: 'decline' } }])
    expect(JSON.parse(eventsOf(owner.events, 'tool_result')[0]!.content)).toMatchObject({ status: 'cancelled' })
  })

  it('expires a session nobody answers, with one timer, and says why', async () => {
    await chat.close()
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], idleTimeoutMs: 40 })
    client = createChatTestClient({ chat })
    const { request } = await startBooking()
    await expect.poll(() => chat.listActive(), { interval: 20, timeout: 2_000 }).toEqual([])
    const turn = await client.answer([{ request, result: { action: 'decline' } }])
    expect(eventsOf(turn.events, 'plugin_session_error')[0]).toMatchObject({
      error: 'SESSION_ABORTED',
      message: expect.stringContaining('expired'),
    })
  })
})

describe('stopping', () => {
  it('aborts a waiting session on request, without calling the model', async () => {
    const { request } = await startBooking()
    const turn = await client.abort(request.sessionId, 'Stopped by the user')
    expect(eventsOf(turn.events, 'tool_error')[0]).toMatchObject({ id: request.callId, message: 'Stopped by the user' })
    expect(eventsOf(turn.events, 'text')).toHaveLength(0)
    expect(await chat.listActive()).toEqual([])
    expect(client.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: request.callId })
    const next = await client.say('Hello again')
    expect(next.events.at(-1)?.type).toBe('complete')
  })

  it('ends the turn and its tools when the request is aborted mid-stream', async () => {
    // The offline model, whose answers to a tool's sample wait until the test is done: the
    // request is aborted while the tool waits on its model, whatever the machine's load.
    const offline = createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] })
    let sampling = false
    const model: typeof offline = {
      ...offline,
      async doGenerate(options) {
        sampling = true
        await new Promise<void>((resolve) => options.abortSignal?.addEventListener('abort', () => resolve(), { once: true }))
        return offline.doGenerate(options)
      },
    }
    const slow = await createChatServer({ model, tools: [bookTrainTool] })
    const stopper = createChatTestClient({ chat: slow })
    const { request } = await (async () => {
      const turn = await stopper.say('Book a train from Paris to Lyon')
      return { request: elicitRequests(turn.events)[0]! }
    })()
    const trains = contextOf(request).trains as Train[]
    const second = await stopper.answer([{ request, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    const seatRequest = elicitRequests(second.events)[0]!

    const controller = new AbortController()
    const response = await stopper.send(
      {
        messages: stopper.messages,
        pluginElicitResponses: [
          { sessionId: seatRequest.sessionId, callId: seatRequest.callId, elicitId: seatRequest.elicitId, result: { action: 'accept', content: freeSeat(seatRequest) } },
        ],
      },
      { signal: controller.signal },
    )
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let seen = ''
    while (!seen.includes('Finding a travel tip')) seen += decoder.decode((await reader.read()).value)
    expect(sampling).toBe(true)
    controller.abort()
    while (!(await reader.read()).done) {
      // Drain until the server closes the stream.
    }
    expect(seen).not.toContain('"tool_result"')
    expect(await slow.listActive()).toEqual([])
    await slow.close()
  })
})
