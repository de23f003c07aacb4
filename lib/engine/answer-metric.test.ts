import { afterEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import type { Train } from '@/fixtures/book-train/trains'
import { createOfflineModel } from '../models'
import type { PluginElicitRequestEvent } from '../protocol/events'
import type { AnswerMetricOutcome } from './answer-metric'
import { createChatServer, type ChatServer } from './chat-server'
import { createChatTestClient, elicitRequests } from './testing/chat-test-client'

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
