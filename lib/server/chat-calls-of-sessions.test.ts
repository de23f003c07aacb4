import { afterEach, describe, expect, it } from 'vitest'
import type { Operation } from 'effection'
import { handleChatsRequest } from '../conversations'
import { MOVED_ON_REASON } from '../engine/run-turn'
import type { ChatTestClient } from '../engine/testing/chat-test-client'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createMemorySessionStore, type SessionStore } from '../sessions'
import { ENDED_BY_OPERATOR } from './handle-admin-requests'
import { observedStore, SESSION_STORE_OPERATIONS } from './observed-store'
import { chatsRequest, ndjsonLines, openMemoryChats, personWaiting, startCallsInstance, type CallsInstance } from './testing/chat-calls-app'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

async function oneInstance(options: { idleTimeoutMs?: number; maxWatchesPerIdentity?: number; useStore?: () => Operation<SessionStore> } = {}) {
  const chats = await openMemoryChats()
  closing.push(chats.destroy)
  const instance = await startCallsInstance({ chats, ...options })
  closing.push(instance.close)
  return { chats, instance }
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

function follow(instance: CallsInstance, person: ChatTestClient, chatId: string, signal?: AbortSignal, query = '') {
  return handleChatsRequest({ app: instance.app, request: chatsRequest(person, `/api/chats/${chatId}/waiting${query}`, { signal }), endpoint: { action: 'waiting', id: chatId } })
}

/** What an operator's End does (`operator-instance.ts`): the call ended in the store, which the sessions announce. */
async function operatorEnds(instance: CallsInstance, owner: string, question: PluginElicitRequestEvent) {
  expect(await instance.chat.endWaiting({ clientId: owner, callId: question.callId, reason: ENDED_BY_OPERATOR })).toBe(true)
}

const stopped = (question: PluginElicitRequestEvent, message: string) => ({
  type: 'plugin_session_error',
  sessionId: question.sessionId,
  callId: question.callId,
  error: 'SESSION_ABORTED',
  message,
})
const endedByOperator = (question: PluginElicitRequestEvent) => stopped(question, ENDED_BY_OPERATOR)

/** Sessions in memory, each operation of their store named in `operations` as it is made (the app's own observer, `observedStore`). */
function countedSessions(operations: string[]): () => Operation<SessionStore> {
  // eslint-disable-next-line require-yield
  return function* () {
    return observedStore(createMemorySessionStore(), SESSION_STORE_OPERATIONS, { system: 'memory', collection: 'sessions', report: ({ operation }) => operations.push(operation) })
  }
}

describe('a chat whose waiting call ended elsewhere', () => {
  it('reads as ended once an operator ends it: its call in endedCalls with the reason, no longer waiting in the list, its turns as stored', async () => {
    const { chats, instance } = await oneInstance()
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const before = await readChat(instance, person, chatId)
    expect(before.chat.waiting).toBe(true)
    expect(before.chat.endedCalls).toBeUndefined()
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: true })])

    await operatorEnds(instance, owner, question)
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
    const { chats, instance } = await oneInstance()
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const response = await follow(instance, person, chatId)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const lines = ndjsonLines(response)
    const first = lines.next()

    await operatorEnds(instance, owner, question)
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
    const { chats, instance } = await oneInstance({ maxWatchesPerIdentity: 2 })
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
    await operatorEnds(instance, owner, question)
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

describe('a waiting call the person stops, or moves on from', () => {
  it('is told at once to a page that follows it when another page of the same person presses Stop, and the list stops saying the chat waits', async () => {
    const { chats, instance } = await oneInstance()
    const { person, chatId, question } = await personWaiting(instance, chats)
    // Page B follows the question; page A, the same identity, stops it.
    const lines = ndjsonLines(await follow(instance, person, chatId))
    const first = lines.next()

    const stop = await person.abort(question.sessionId, 'Stopped by the user')
    expect(stop.status).toBe(200)
    expect(await first).toEqual(stopped(question, 'Stopped by the user'))
    expect(await lines.next()).toBeUndefined()
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: false })])
  })

  it('is told at once to a page that names it when it follows after the Stop was kept (the chat no longer keeps it waiting); a malformed list is refused', async () => {
    const { chats, instance } = await oneInstance()
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    await person.abort(question.sessionId, 'Stopped by the user')
    expect((await chats.run(() => chats.value.get(owner, chatId)))!.waitingCalls).toEqual([])

    // Unnamed, the chat's own set: nothing waits, the response ends at once, empty.
    expect(await ndjsonLines(await follow(instance, person, chatId)).next()).toBeUndefined()
    // Named by the page that still shows it: told how it ended.
    const lines = ndjsonLines(await follow(instance, person, chatId, undefined, `?calls=${question.callId}`))
    expect(await lines.next()).toEqual(stopped(question, 'Stopped by the user'))
    expect(await lines.next()).toBeUndefined()

    const refused = await follow(instance, person, chatId, undefined, `?calls=${Array.from({ length: 33 }, (_, index) => `call-${index}`).join(',')}`)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_request')
  })

  it('leaves the chat’s waiting calls with the turn that moves on from it after an operator ended it: later reads ask the sessions nothing for it, and still show how it ended', async () => {
    const operations: string[] = []
    const { chats, instance } = await oneInstance({ useStore: countedSessions(operations) })
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    await operatorEnds(instance, owner, question)
    // Until a turn closes it, each read asks the sessions about the call the chat leaves waiting.
    operations.length = 0
    expect((await readChat(instance, person, chatId)).chat).toMatchObject({ waiting: false, endedCalls: [endedByOperator(question)] })
    expect(operations).toEqual(['get'])

    // The page showed it ended, so the person may write: the new message moves on, and its turn says how the call ended.
    const turn = await person.say('Never mind, hello')
    expect(turn.events[0]).toEqual(endedByOperator(question))
    expect(turn.events.at(-1)?.type).toBe('complete')
    expect((await chats.run(() => chats.value.get(owner, chatId)))!.waitingCalls).toEqual([])

    operations.length = 0
    const read = await readChat(instance, person, chatId)
    expect(read.chat.waiting).toBe(false)
    expect(read.chat.endedCalls).toBeUndefined()
    expect(read.chat.turns.at(-1)).toMatchObject({ input: { text: 'Never mind, hello' }, events: expect.arrayContaining([endedByOperator(question)]) })
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: false })])
    expect(operations).toEqual([])
  })

  it('is stopped by a new message while it still waits: the page that follows it hears so, and the chat’s waiting calls drop it in that turn’s write', async () => {
    const operations: string[] = []
    const { chats, instance } = await oneInstance({ useStore: countedSessions(operations) })
    const { person, owner, chatId, question } = await personWaiting(instance, chats)
    const lines = ndjsonLines(await follow(instance, person, chatId))
    const first = lines.next()

    // A page whose question still waits (an API client, a page whose Stop did not go through) sends a new message.
    const turn = await person.say('Never mind, hello')
    expect(turn.events[0]).toEqual(stopped(question, MOVED_ON_REASON))
    expect(await first).toEqual(stopped(question, MOVED_ON_REASON))
    expect(await lines.next()).toBeUndefined()
    expect((await chats.run(() => chats.value.get(owner, chatId)))!.waitingCalls).toEqual([])

    operations.length = 0
    expect((await readChat(instance, person, chatId)).chat).toMatchObject({ waiting: false })
    expect(await listed(instance, person)).toEqual([expect.objectContaining({ id: chatId, waiting: false })])
    expect(operations).toEqual([])
  })
})
