import { afterEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import type { Train } from '@/fixtures/book-train/trains'
import { createOfflineModel } from '../models'
import { parseElicitId } from '../protocol/elicit-id'
import { createMemorySessionStore, type SessionStore } from '../sessions'
import { createLocalCallEnds, type CallEnds } from '../sessions/call-ends'
import { openInScope } from '../testing/in-scope'
import { heardCalls } from '../sessions/testing/heard-calls'
import { createChatServer, type ChatServer } from './chat-server'
import { INTERRUPTED_MESSAGE } from './conversation'
import { MOVED_ON_REASON } from './run-turn'
import { createChatTestClient, elicitRequests, eventsOf, type ChatTestClient } from './testing/chat-test-client'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** One instance of the app: sessions in `store`, stops announced through `ends` (both shared by the instances of a test, as Redis is). */
async function instance(store: SessionStore, ends: CallEnds): Promise<ChatServer> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
    tools: [bookTrainTool],
    secret: 'a-secret-the-instances-of-these-tests-share-0123456789',
    // eslint-disable-next-line require-yield
    useStore: function* () {
      return store
    },
    // eslint-disable-next-line require-yield
    useCallEnds: function* () {
      return ends
    },
  })
  closing.push(() => chat.close())
  return chat
}

/** What a page following `clientId`'s calls through `chat` hears (`ChatServer.callEnds`): each stop announced from now on, in order. */
async function listen(chat: ChatServer, clientId: string) {
  const heard = heardCalls(chat.callEnds, clientId)
  closing.push(async () => heard.stop())
  return heard
}

/** Announces `callId` of `clientId` by hand: heard after whatever was announced before it, so a listener that hears it first heard nothing before. */
async function mark(ends: CallEnds, clientId: string, callId: string) {
  const scope = await openInScope(function* () {
    yield* ends.announce(clientId, callId)
  })
  await scope.destroy()
}

async function waitingBooking(chat: ChatServer): Promise<{ person: ChatTestClient; clientId: string; question: ReturnType<typeof elicitRequests>[number] }> {
  const person = createChatTestClient({ chat })
  const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]
  if (!question) throw new Error('The booking asked nothing.')
  return { person, clientId: person.clientId!, question }
}

/**
 * Two instances sharing a store and the announcements, a person's booking waiting on instance
 * `a`, and on `b` a listener of that person and one of someone else.
 */
async function waitingOnTwoInstances() {
  const store = createMemorySessionStore()
  const ends = createLocalCallEnds()
  const a = await instance(store, ends)
  const b = await instance(store, ends)
  const waiting = await waitingBooking(a)
  return { ends, a, b, ...waiting, onB: await listen(b, waiting.clientId), stranger: await listen(b, 'someone-else') }
}

const stoppedEvent = (callId: string, message: string) => ({ type: 'plugin_session_error', sessionId: callId, callId, error: 'SESSION_ABORTED', message })

describe('the stops of calls, announced by the sessions', () => {
  it('a Stop on one instance is heard by the same person’s listener on another, and the call reads stopped with its reason; another person hears nothing', async () => {
    const { ends, b, person, clientId, question, onB, stranger } = await waitingOnTwoInstances()

    const stop = await person.abort(question.sessionId, 'Stopped by the user')
    expect(eventsOf(stop.events, 'tool_error')).toEqual([{ type: 'tool_error', id: question.callId, name: 'book_train', message: 'Stopped by the user' }])
    expect(await onB.next()).toBe(question.callId)
    expect(await b.callStanding({ clientId, callId: question.callId })).toEqual({ kind: 'ended', event: stoppedEvent(question.callId, 'Stopped by the user') })

    await mark(ends, 'someone-else', 'the-mark')
    expect(await stranger.next()).toBe('the-mark')
  })

  it('a new message moves on from a waiting call: the call is stopped, the stop heard, and the turn tells how it ended before anything else', async () => {
    const ends = createLocalCallEnds()
    const chat = await instance(createMemorySessionStore(), ends)
    const { person, clientId, question } = await waitingBooking(chat)
    const listener = await listen(chat, clientId)

    const turn = await person.say('Never mind, hello')
    expect(turn.status).toBe(200)
    expect(turn.events[0]).toEqual(stoppedEvent(question.callId, MOVED_ON_REASON))
    expect(turn.events.at(-1)?.type).toBe('complete')
    expect(await listener.next()).toBe(question.callId)
    // The model reads the call's result as before.
    expect(person.messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: question.callId, content: INTERRUPTED_MESSAGE }))
  })

  it('an operator’s End is heard; a new message after it tells the call as the End left it, and stops nothing more', async () => {
    const ends = createLocalCallEnds()
    const chat = await instance(createMemorySessionStore(), ends)
    const { person, clientId, question } = await waitingBooking(chat)
    const listener = await listen(chat, clientId)

    expect(await chat.endWaiting({ clientId, callId: question.callId, reason: 'An operator ended this question.' })).toBe(true)
    expect(await listener.next()).toBe(question.callId)

    const turn = await person.say('Hello again')
    expect(turn.events[0]).toEqual(stoppedEvent(question.callId, 'An operator ended this question.'))
    expect(turn.events.at(-1)?.type).toBe('complete')
    // Nothing was stopped by the new message, so nothing was announced: the next word heard is the mark.
    await mark(ends, clientId, 'the-mark')
    expect(await listener.next()).toBe('the-mark')
  })

  it('a turn that says nothing new of a call announces nothing: the next turn after a Stop hears no stop again', async () => {
    const ends = createLocalCallEnds()
    const chat = await instance(createMemorySessionStore(), ends)
    const { person, clientId, question } = await waitingBooking(chat)
    await person.abort(question.sessionId, 'Stopped by the user')
    const listener = await listen(chat, clientId)

    // The Stop gave the call its result: the new message moves on from nothing.
    const turn = await person.say('Hello')
    expect(eventsOf(turn.events, 'plugin_session_error')).toEqual([])
    await mark(ends, clientId, 'the-mark')
    expect(await listener.next()).toBe('the-mark')
  })

  it('an answer on one instance is heard, once, by the same person’s listener on another, and the call reads with that question answered and the next one waiting', async () => {
    const { ends, b, person, clientId, question, onB, stranger } = await waitingOnTwoInstances()
    expect(await b.callStanding({ clientId, callId: question.callId })).toEqual({ kind: 'waiting', expiresAt: expect.any(Number) })

    const trains = question.context.trains as Train[]
    const turn = await person.answer([{ request: question, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    const next = elicitRequests(turn.events)[0]
    expect(next).toMatchObject({ callId: question.callId, key: 'pickSeat' })
    expect(await onB.next()).toBe(question.callId)
    expect(await b.callStanding({ clientId, callId: question.callId })).toEqual({ kind: 'waiting', expiresAt: expect.any(Number), answered: [parseElicitId(question.elicitId)!.seq] })

    // One announcement for the one answer: the next word heard is the mark, by both.
    await mark(ends, clientId, 'the-mark')
    expect(await onB.next()).toBe('the-mark')
    await mark(ends, 'someone-else', 'the-mark')
    expect(await stranger.next()).toBe('the-mark')
  })

  it('an answer refused (a second delivery of it) announces nothing', async () => {
    const ends = createLocalCallEnds()
    const chat = await instance(createMemorySessionStore(), ends)
    const { person, clientId, question } = await waitingBooking(chat)
    const trains = question.context.trains as Train[]
    const answer = { request: question, result: { action: 'accept' as const, content: { trainId: trains[0]!.id } } }
    const asked = structuredClone(person.messages)
    expect((await person.answer([answer])).status).toBe(200)
    const listener = await listen(chat, clientId)

    person.messages = asked
    expect((await person.answer([answer])).status).toBe(409)
    await mark(ends, clientId, 'the-mark')
    expect(await listener.next()).toBe('the-mark')
  })
})
