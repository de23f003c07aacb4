import { afterEach, describe, expect, it } from 'vitest'
import { handleChatsRequest, type Conversations } from '../conversations'
import type { ChatTestClient } from '../engine/testing/chat-test-client'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createLocalCallEnds } from '../sessions/call-ends'
import type { InScope } from '../testing/in-scope'
import { ENDED_BY_OPERATOR } from './handle-admin-requests'
import { chatsRequest, ndjsonLines, openMemoryChats, personWaiting, startCallsInstance, type CallsInstance } from './testing/chat-calls-app'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

async function oneInstance(options: { idleTimeoutMs?: number; maxWatchesPerIdentity?: number } = {}) {
  const chats = await openMemoryChats()
  closing.push(chats.destroy)
  const ends = createLocalCallEnds()
  const instance = await startCallsInstance({ chats, ends, ...options })
  closing.push(instance.close)
  return { chats, ends, instance }
}

type Read = { chat: { waiting: boolean; turns: unknown[]; endedCalls?: unknown[] } }

async function readChat(instance: CallsInstance, person: ChatTestClient, chatId: string): Promise<Read> {
  const response = await handleChatsRequest({ app: instance.app, request: chatsRequest(person, `/api/chats/${chatId}`), endpoint: { action: 'get', id: chatId } })
  expect(response.status).toBe(200)
  return (await response.json()) as Read
}

async function listed(instance: CallsInstance, person: ChatTestClient): Promise<Array<{ id: string; waiting: boolean }>> {
  const response = await handleChatsRequest({ app: instance.app, request: chatsRequest(person, '/api/chats'), endpoint: { action: 'list' } })
  return ((await response.json()) as { chats: Array<{ id: string; waiting: boolean }> }).chats
}

function follow(instance: CallsInstance, person: ChatTestClient, chatId: string, signal?: AbortSignal) {
  return handleChatsRequest({ app: instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting`, { signal }), endpoint: { action: 'waiting', id: chatId } })
}

/** What an operator's End does (`operator-instance.ts`): the call ended in the store, then announced. */
async function operatorEnds(instance: CallsInstance, ends: ReturnType<typeof createLocalCallEnds>, chats: InScope<Conversations>, owner: string, question: PluginElicitRequestEvent) {
  expect(await instance.chat.endWaiting({ clientId: owner, callId: question.callId, reason: ENDED_BY_OPERATOR })).toBe(true)
  await chats.run(() => ends.announce(owner, question.callId))
}

const endedByOperator = (question: PluginElicitRequestEvent) => ({
  type: 'plugin_session_error',
  sessionId: question.sessionId,
  callId: question.callId,
  error: 'SESSION_ABORTED',
  message: ENDED_BY_OPERATOR,
})

describe('a chat whose waiting call ended elsewhere', () => {
  it('reads as ended once an operator ends it: its call in endedCalls with the reason, no longer waiting in the list, its turns as stored', async () => {
    const { chats, ends, instance } = await oneInstance()
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const before = await readChat(instance, person, chatId)
    expect(before.chat.waiting).toBe(true)
    expect(before.chat.endedCalls).toBeUndefined()
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: true })])

    await operatorEnds(instance, ends, chats, owner, question)
    const after = await readChat(instance, person, chatId)
    expect(after.chat).toMatchObject({ waiting: false, endedCalls: [endedByOperator(question)] })
    expect(after.chat.turns).toEqual(before.chat.turns)
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: false })])
    // Kept as it streamed: the store still lists the call, the read says what became of it.
    expect((await chats.run(() => chats.value.get(owner, chatId)))!.waitingCalls).toEqual([question.callId])

    // The person's answer, sent anyway (a page that had not heard), is told the same, as before.
    const turn = await person.answer([{ request: question, result: { action: 'accept', content: { trainId: 'any' } } }])
    expect(turn.events).toContainEqual(endedByOperator(question))
    expect((await readChat(instance, person, chatId)).chat.waiting).toBe(false)
  })

  it('is told to a page that follows it the moment the operator ends it, and the page’s request ends', async () => {
    const { chats, ends, instance } = await oneInstance()
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const response = await follow(instance, person, chatId)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const lines = ndjsonLines(response)
    const first = lines.next()

    await operatorEnds(instance, ends, chats, owner, question)
    expect(await first).toEqual(endedByOperator(question))
    expect(await lines.next()).toBeUndefined()
  })

  it('is told at once to a page that follows it after it ended, and at its idle time-out to one that followed it before', async () => {
    const { chats, instance } = await oneInstance({ idleTimeoutMs: 1000 })
    const { person, chatId, question } = await personWaiting(instance, chats)
    const lines = ndjsonLines(await follow(instance, person, chatId))
    const expired = { type: 'plugin_session_error', sessionId: question.sessionId, callId: question.callId, error: 'SESSION_ABORTED', message: 'The book_train session expired after 1 s without an answer.' }
    // No End is announced: the watch reads the call again when its record says it expires.
    expect(await lines.next()).toEqual(expired)
    expect(await lines.next()).toBeUndefined()

    const later = ndjsonLines(await follow(instance, person, chatId))
    expect(await later.next()).toEqual(expired)
    expect(await later.next()).toBeUndefined()
    expect((await readChat(instance, person, chatId)).chat).toMatchObject({ waiting: false, endedCalls: [expired] })
  })

  it('ends a page’s request when the page goes, and refuses another’s chat, a malformed id and too many at once, each with its JSON code', async () => {
    const { chats, ends, instance } = await oneInstance({ maxWatchesPerIdentity: 2 })
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const mallory = await personWaiting(instance, chats)

    const codeOf = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code]
    expect(await codeOf(await follow(instance, mallory.person, chatId))).toEqual([404, 'chat_not_found'])
    expect(await codeOf(await follow(instance, person, 'not a chat id'))).toEqual([404, 'chat_not_found'])

    const gone = new AbortController()
    const first = await follow(instance, person, chatId, gone.signal)
    const second = await follow(instance, person, chatId)
    const third = await follow(instance, person, chatId)
    expect(await codeOf(third)).toEqual([429, 'too_many_watches'])
    // Mallory's bound is her own.
    expect((await follow(instance, mallory.person, mallory.chatId)).status).toBe(200)

    // The first page goes: its request ends, and its place is free again.
    const firstLines = ndjsonLines(first)
    gone.abort()
    expect(await firstLines.next()).toBeUndefined()
    const again = await follow(instance, person, chatId)
    expect(again.status).toBe(200)

    // Both still followed hear the End.
    await operatorEnds(instance, ends, chats, owner, question)
    for (const response of [second, again]) expect(await ndjsonLines(response).next()).toEqual(endedByOperator(question))
  })

  it('ends every request when the instance stops, and answers a later one at once, empty', async () => {
    const { chats, instance } = await oneInstance()
    const { person, chatId } = await personWaiting(instance, chats)
    const lines = ndjsonLines(await follow(instance, person, chatId))
    const ended = lines.next()
    await instance.calls.closeAll()
    expect(await ended).toBeUndefined()
    expect(await ndjsonLines(await follow(instance, person, chatId)).next()).toBeUndefined()
  })
})
