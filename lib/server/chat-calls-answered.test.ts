import { afterEach, describe, expect, it } from 'vitest'
import type { Train } from '@/fixtures/book-train/trains'
import { handleChatsRequest } from '../conversations'
import type { ChatTestClient } from '../engine/testing/chat-test-client'
import { elicitRequests } from '../engine/testing/chat-test-client'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { ENDED_BY_OPERATOR } from './handle-admin-requests'
import { chatsRequest, ndjsonLines, openMemoryChats, personWaiting, startCallsInstance, type CallsInstance } from './testing/chat-calls-app'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

async function oneInstance() {
  const chats = await openMemoryChats()
  closing.push(chats.destroy)
  const instance = await startCallsInstance({ chats })
  closing.push(instance.close)
  return { chats, instance }
}

/** `GET /api/chats/:id/waiting` as the page that shows `questions` waiting makes it. */
function followQuestions(instance: CallsInstance, person: ChatTestClient, chatId: string, questions: readonly PluginElicitRequestEvent[]) {
  return followRaw(instance, person, chatId, `?questions=${questions.map((question) => encodeURIComponent(question.elicitId)).join(',')}`)
}

/** `GET /api/chats/:id/waiting` with `query` as it is sent. */
function followRaw(instance: CallsInstance, person: ChatTestClient, chatId: string, query: string) {
  return handleChatsRequest({ app: instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting${query}`), endpoint: { action: 'waiting', id: chatId } })
}

const pickFirstTrain = (question: PluginElicitRequestEvent) => ({ action: 'accept' as const, content: { trainId: (question.context.trains as Train[])[0]!.id } })

describe('a waiting question the person answers on another page', () => {
  it('is told to the page that follows it as answered the moment the answer is taken, and the chat, read once the answering turn is kept, holds what came of it', async () => {
    const { chats, instance } = await oneInstance()
    const { person, chatId, question } = await personWaiting(instance, chats)
    // Page B follows the question it shows; page A, the same identity, answers it.
    const response = await followQuestions(instance, person, chatId, [question])
    expect(response.status).toBe(200)
    const lines = ndjsonLines(response)
    const first = lines.next()

    const turn = await person.answer([{ request: question, result: pickFirstTrain(question) }])
    const seat = elicitRequests(turn.events)[0]!
    expect(seat).toMatchObject({ callId: question.callId, key: 'pickSeat' })
    expect(await first).toEqual({ type: 'call_answered', callId: question.callId, elicitId: question.elicitId })
    expect(await lines.next()).toBeUndefined()

    // What page B reads then: the answering turn, with the seat question, which the chat waits on.
    const read = await handleChatsRequest({ app: instance.app, request: chatsRequest(person, `/api/chats/${chatId}`), endpoint: { action: 'get', id: chatId } })
    const { chat } = (await read.json()) as { chat: { waiting: boolean; turns: Array<{ events: Array<{ type: string; elicitId?: string }> }> } }
    expect(chat.waiting).toBe(true)
    expect(chat.turns.at(-1)!.events).toContainEqual(expect.objectContaining({ type: 'plugin_elicit_request', elicitId: seat.elicitId }))

    // A page that follows the answered question after the answer is told at once; one that shows the seat question is not behind.
    const late = ndjsonLines(await followQuestions(instance, person, chatId, [question]))
    expect(await late.next()).toEqual({ type: 'call_answered', callId: question.callId, elicitId: question.elicitId })
    expect(await late.next()).toBeUndefined()
    const current = ndjsonLines(await followQuestions(instance, person, chatId, [seat]))
    const told = current.next()
    expect(await instance.chat.endWaiting({ clientId: person.clientId!, callId: seat.callId, reason: ENDED_BY_OPERATOR })).toBe(true)
    expect(await told).toEqual({ type: 'plugin_session_error', sessionId: seat.sessionId, callId: seat.callId, error: 'SESSION_ABORTED', message: ENDED_BY_OPERATOR })
    expect(await current.next()).toBeUndefined()
  })

  it('refuses a malformed list of questions with a 400 that says what is wrong', async () => {
    const { chats, instance } = await oneInstance()
    const { person, chatId, question } = await personWaiting(instance, chats)
    const refusal = async (query: string) => {
      const response = await followRaw(instance, person, chatId, query)
      const body = (await response.json()) as { error: { code: string; message: string } }
      return [response.status, body.error.code, body.error.message]
    }
    expect(await refusal('?questions=not-an-elicit-id')).toEqual([400, 'invalid_request', expect.stringContaining('"not-an-elicit-id" is not an elicit id')])
    expect(await refusal(`?questions=${encodeURIComponent(question.elicitId)},`)).toEqual([400, 'invalid_request', expect.stringContaining('at most 32 elicit ids')])
    expect(await refusal(`?questions=${Array.from({ length: 33 }, () => encodeURIComponent(question.elicitId)).join(',')}`)).toEqual([400, 'invalid_request', expect.stringContaining('at most 32 elicit ids')])
    expect(await refusal(`?calls=${question.callId}&questions=${encodeURIComponent(question.elicitId)}`)).toEqual([400, 'invalid_request', expect.stringContaining('not both')])
    expect(await refusal('?question=x')).toEqual([400, 'invalid_request', expect.any(String)])
  })
})
