import { afterEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import type { Train } from '@/fixtures/book-train/trains'
import { createOfflineModel } from '../models'
import type { PluginElicitRequestEvent } from '../protocol/events'
import type { AnswerMetricOutcome } from './answer-metric'
import { createChatServer, type ChatServer } from './chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from './testing/chat-test-client'
import { createServerMetrics } from '../telemetry/metrics'
import { createMemorySessionStore } from '../sessions'

let chat: ChatServer | undefined
afterEach(() => chat?.close())

const trainAnswer = (question: PluginElicitRequestEvent) => {
  const trains = question.context.trains as Train[]
  return { action: 'accept' as const, content: { trainId: trains[0]!.id } }
}

/** A chat server whose answers' outcomes are heard, with a person waiting on its first question. */
async function waitingBooking(options: { hotMs?: number } = {}) {
  const heard: AnswerMetricOutcome[] = []
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], observeAnswer: (outcome) => heard.push(outcome), ...options })
  const person = createChatTestClient({ chat })
  const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
  return { heard, person, question }
}

describe('what became of each answer, as the metrics count it', () => {
  it('resumed from memory, then a second delivery of it refused', async () => {
    const { heard, person, question } = await waitingBooking()
    const asked = structuredClone(person.messages)
    expect((await person.answer([{ request: question, result: trainAnswer(question) }])).status).toBe(200)
    person.messages = asked
    expect((await person.answer([{ request: question, result: trainAnswer(question) }])).status).toBe(409)
    expect(heard).toEqual(['resumed_hot', 'refused'])
  })

  it('replayed from its record when the tool is not kept in memory', async () => {
    const { heard, person, question } = await waitingBooking({ hotMs: 0 })
    expect((await person.answer([{ request: question, result: trainAnswer(question) }])).status).toBe(200)
    expect(heard).toEqual(['replayed'])
  })

  it('ended, when an operator ended the call before the answer came; rejected, when it does not fit', async () => {
    const { heard, person, question } = await waitingBooking()
    expect((await person.answer([{ request: question, result: { action: 'accept', content: { trainId: 42 } } }])).status).toBe(200)
    const [waiting] = await chat!.listWaiting()
    expect(await chat!.endWaiting({ clientId: waiting!.clientId, callId: waiting!.callId, reason: 'An operator ended this question.' })).toBe(true)
    expect((await person.answer([{ request: question, result: trainAnswer(question) }])).status).toBe(200)
    expect(heard).toEqual(['rejected', 'ended'])
  })
})

describe('answers too late or to nothing, as elicit_answers_total counts them', () => {
  /** The server's answer counter, as the app feeds it (chat-server-instance.ts), read by outcome. */
  function counted() {
    const metrics = createServerMetrics()
    const read = async () => Object.fromEntries((await metrics.answers.get()).values.map(({ labels, value }) => [labels.outcome, value]))
    return { observeAnswer: (outcome: AnswerMetricOutcome) => metrics.answers.inc({ outcome }), read }
  }

  it('expired: the answer comes after the idle time-out, on the sessions’ clock', async () => {
    const { observeAnswer, read } = counted()
    let now = Date.now()
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], idleTimeoutMs: 60_000, now: () => now, observeAnswer })
    const person = createChatTestClient({ chat })
    const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
    now += 60_000
    const late = await person.answer([{ request: question, result: trainAnswer(question) }])
    expect(eventsOf(late.events, 'plugin_session_error')).toEqual([expect.objectContaining({ callId: question.callId, error: 'SESSION_ABORTED', message: expect.stringContaining('expired after 60 s') })])
    expect(await read()).toEqual({ expired: 1 })
  })

  it('a moment before the idle time-out, the same answer resumes the tool', async () => {
    const { observeAnswer, read } = counted()
    let now = Date.now()
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], idleTimeoutMs: 60_000, now: () => now, observeAnswer })
    const person = createChatTestClient({ chat })
    const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
    now += 59_999
    expect(elicitRequests((await person.answer([{ request: question, result: trainAnswer(question) }])).events)[0]).toMatchObject({ key: 'pickSeat' })
    expect(await read()).toEqual({ resumed_hot: 1 })
  })

  it('lost: an answer from another browser finds no session of its own', async () => {
    const { observeAnswer, read } = counted()
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], observeAnswer })
    const person = createChatTestClient({ chat })
    const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
    const stranger = createChatTestClient({ chat })
    stranger.messages = person.messages
    const answered = await stranger.answer([{ request: question, result: trainAnswer(question) }])
    expect(eventsOf(answered.events, 'plugin_session_error')).toEqual([expect.objectContaining({ callId: question.callId, error: 'SESSION_NOT_FOUND' })])
    expect(await read()).toEqual({ lost: 1 })
  })

  it('lost: an instance sharing the store that does not offer the tool cannot run it', async () => {
    const { observeAnswer, read } = counted()
    const store = createMemorySessionStore()
    // eslint-disable-next-line require-yield
    const useStore = function* () {
      return store
    }
    const secret = 'a-secret-both-instances-share-in-this-test'
    chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], secret, useStore })
    const without = await createChatServer({ model: createOfflineModel({ delayMs: 0 }), tools: [], secret, useStore, observeAnswer })
    try {
      const person = createChatTestClient({ chat })
      const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
      const elsewhere = createChatTestClient({ chat: without })
      elsewhere.cookie = person.cookie
      elsewhere.messages = person.messages
      const answered = await elsewhere.answer([{ request: question, result: trainAnswer(question) }])
      expect(eventsOf(answered.events, 'plugin_session_error')).toEqual([expect.objectContaining({ callId: question.callId, error: 'INTERNAL_ERROR', message: expect.stringContaining('book_train') })])
      expect(await read()).toEqual({ lost: 1 })
    } finally {
      await without.close()
    }
  })
})
