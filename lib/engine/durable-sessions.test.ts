import { afterEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import { createMemorySessionStore, memorySessionKey, type MemorySessionEntry } from '../sessions/stores/memory-store'
import type { SessionStore } from '../sessions'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createChatServer, type ChatServer } from './chat-server'
import { LOST_SESSION_MESSAGE } from './run-turn'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from './testing/chat-test-client'

const servers: ChatServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

/** One "instance" of the app: its own engine and memory, sessions in the shared store. */
async function instance(store: SessionStore, options: { hotMs?: number } = {}): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
    tools: [bookTrainTool],
    // Instances share SESSION_SECRET, so each accepts the conversation another signed.
    secret: 'a-secret-every-instance-in-these-tests-shares',
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
    ...options,
  })
  servers.push(chat)
  return chat
}

/** The same browser (cookie and conversation) talking to another instance. */
function on(chat: ChatServer, browser: ChatTestClient): ChatTestClient {
  const other = createChatTestClient({ chat })
  other.cookie = browser.cookie
  other.messages = browser.messages
  return other
}

const contextOf = (request: PluginElicitRequestEvent) => request.context
const firstTrain = (request: PluginElicitRequestEvent) => (contextOf(request).trains as Train[])[0]!

const freeSeat = (request: PluginElicitRequestEvent) => freeSeats(contextOf(request).seatMap as SeatMap)[0]!

async function startBooking(client: ChatTestClient) {
  const turn = await client.say('Book a train from Paris to Lyon')
  const [request] = elicitRequests(turn.events)
  if (!request) throw new Error(`no question in ${JSON.stringify(turn.events)}`)
  return request
}

/** Two instances sharing one store, and a browser whose booking, started on the first, waits on its first question. */
async function bookingOnTwoInstances() {
  const store = createMemorySessionStore()
  const a = await instance(store)
  const b = await instance(store)
  const onA = createChatTestClient({ chat: a })
  return { a, b, onA, pickTrain: await startBooking(onA) }
}

describe('sessions shared by instances through one store', () => {
  it('completes a booking whose requests go to different instances, each answer replayed where the tool is not in memory', async () => {
    const { a, b, onA, pickTrain } = await bookingOnTwoInstances()
    const train = firstTrain(pickTrain)

    const onB = on(b, onA)
    const seatTurn = await onB.answer([{ request: pickTrain, result: { action: 'accept', content: { trainId: train.id } } }])
    const [pickSeat] = elicitRequests(seatTurn.events)
    expect(pickSeat).toMatchObject({ key: 'pickSeat', sessionId: pickTrain.sessionId })
    // Only what happened after the answer is reported: the train search's log is not sent again.
    expect(eventsOf(seatTurn.events, 'plugin_log')).toEqual([])

    const seat = freeSeat(pickSeat!)
    const back = on(a, onB)
    const done = await back.answer([{ request: pickSeat!, result: { action: 'accept', content: seat } }])
    const [result] = eventsOf(done.events, 'tool_result')
    expect(JSON.parse(result!.content)).toMatchObject({
      status: 'confirmed',
      train: { id: train.id },
      seat: `${seat.row}${seat.seat}`,
      ticketNumber: expect.stringMatching(/^TKT-/),
    })
  })

  it('lets only one of two deliveries of the same answer continue; the other is refused and sees no next question', async () => {
    const { a, b, onA, pickTrain } = await bookingOnTwoInstances()
    const onB = on(b, onA)
    const answer = { request: pickTrain, result: { action: 'accept' as const, content: { trainId: firstTrain(pickTrain).id } } }

    const turns = await Promise.all([onA.answer([answer]), onB.answer([answer])])
    const continued = turns.filter((turn) => turn.status === 200)
    const refused = turns.filter((turn) => turn.status !== 200)
    expect(continued).toHaveLength(1)
    expect(refused).toEqual([expect.objectContaining({ status: 409, error: expect.objectContaining({ code: 'elicit_already_answered' }) })])
    expect(elicitRequests(continued[0]!.events)).toMatchObject([{ key: 'pickSeat' }])

    // The last answer, delivered twice at once: one ticket, never two.
    const pickSeat = elicitRequests(continued[0]!.events)[0]!
    const winner = continued[0] === turns[0] ? onA : onB
    const [first, second] = [on(a, winner), on(b, winner)]
    const seatAnswer = { request: pickSeat, result: { action: 'accept' as const, content: freeSeat(pickSeat) } }
    const finals = await Promise.all([first.answer([seatAnswer]), second.answer([seatAnswer])])
    expect(finals.flatMap((turn) => eventsOf(turn.events, 'tool_result'))).toHaveLength(1)
    expect(finals.map((turn) => turn.status).sort()).toEqual([200, 409])
  })

  it('says a session was stopped on another instance when the one holding it in memory gets its answer', async () => {
    const { b, onA, pickTrain } = await bookingOnTwoInstances()
    const stopped = await on(b, onA).abort(pickTrain.sessionId, 'Stopped in the other tab.')
    expect(stopped.status).toBe(200)

    // A still holds the tool waiting in memory; the store says it was stopped.
    const late = await onA.answer([{ request: pickTrain, result: { action: 'accept', content: { trainId: firstTrain(pickTrain).id } } }])
    expect(late.status).toBe(200)
    expect(eventsOf(late.events, 'plugin_session_error')).toMatchObject([{ sessionId: pickTrain.sessionId, error: 'SESSION_ABORTED' }])
    expect(elicitRequests(late.events)).toEqual([])
  })

  it('refuses with 409 an answer the instance holding the tool in memory gets after another instance recorded one', async () => {
    const { b, onA, pickTrain } = await bookingOnTwoInstances()
    const answer = { request: pickTrain, result: { action: 'accept' as const, content: { trainId: firstTrain(pickTrain).id } } }
    const onB = on(b, onA)
    const first = await onB.answer([answer])
    expect(elicitRequests(first.events)).toMatchObject([{ key: 'pickSeat' }])

    // A hands the answer to its tool at once; the write that would record it loses, and nothing of what the tool did is shown.
    const late = await onA.answer([answer])
    expect(late).toMatchObject({ status: 409, error: { code: 'elicit_already_answered' } })
    // The session B continued is untouched: it still waits on the seat, and B's answer completes it.
    const seat = elicitRequests(first.events)[0]!
    const done = await onB.answer([{ request: seat, result: { action: 'accept', content: freeSeat(seat) } }])
    expect(eventsOf(done.events, 'tool_result')).toHaveLength(1)
  })

  it('gives the result of a session that finished while its client was away, instead of losing it', async () => {
    const store = createMemorySessionStore()
    const a = await instance(store)
    const client = createChatTestClient({ chat: a })
    const pickTrain = await startBooking(client)
    const seatTurn = await client.answer([{ request: pickTrain, result: { action: 'accept', content: { trainId: firstTrain(pickTrain).id } } }])
    const pickSeat = elicitRequests(seatTurn.events)[0]!
    const beforeResult = client.messages
    await client.answer([{ request: pickSeat, result: { action: 'accept', content: freeSeat(pickSeat) } }])

    // The browser never got that answer's stream: it sends the conversation as it had it.
    client.messages = beforeResult
    const again = await client.post({ messages: beforeResult })
    expect(again.status).toBe(200)
    expect(eventsOf(again.events, 'tool_result')[0]!.content).toContain('"status":"confirmed"')
    expect(eventsOf(again.events, 'plugin_session_error')).toEqual([])
  })

  it('reports a stored session it cannot read as a plugin_session_error, and the conversation carries on', async () => {
    const entries = new Map<string, MemorySessionEntry>()
    const a = await instance(createMemorySessionStore(entries), { hotMs: 0 })
    const client = createChatTestClient({ chat: a })
    const pickTrain = await startBooking(client)
    const key = [...entries.keys()].find((candidate) => candidate === memorySessionKey(JSON.parse(candidate)[0], pickTrain.sessionId))!
    entries.set(key, { ...entries.get(key)!, text: '{"format": 7}' })

    const turn = await client.answer([{ request: pickTrain, result: { action: 'accept', content: { trainId: firstTrain(pickTrain).id } } }])
    expect(turn.status).toBe(200)
    expect(eventsOf(turn.events, 'plugin_session_error')).toEqual([
      expect.objectContaining({ sessionId: pickTrain.sessionId, error: 'INTERNAL_ERROR', message: expect.stringContaining('format 7') }),
    ])
    expect(client.messages).toContainEqual({ role: 'tool', tool_call_id: pickTrain.callId, content: LOST_SESSION_MESSAGE, sig: expect.any(String) })
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
  })
})
