import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Train } from '@/fixtures/book-train/trains'
import { handleChatsRequest } from '../conversations'
import { createChatTestClient, elicitRequests, type ChatTestClient } from '../engine/testing/chat-test-client'
import { createInFlightLimiter, handleChatRequest } from '../http'
import { installRequestTelemetry } from '../http/request-telemetry'
import { serveFetch } from '../mcp/server/testing/serve-fetch'
import { newChatId } from '../protocol/chat-id'
import { createLogger, type Logger } from '../telemetry'
import type { ChatEvent, PluginElicitRequestEvent } from '../protocol/events'
import { ENDED_BY_OPERATOR } from './handle-admin-requests'
import { chatsRequest, ndjsonLines, openMemoryChats, startCallsInstance, type CallsInstance } from './testing/chat-calls-app'

// A turn of a kept chat that asks to be followed (`follow`): once it has ended with questions
// waiting, its response says `turn_end` and goes on as `GET /api/chats/:id/waiting` would, so
// that the page that booked holds no second request per question (docs/http-contract.md).

const globalForLog = globalThis as typeof globalThis & { serverLogger?: Logger }
installRequestTelemetry()

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const ADDRESS = '203.0.113.7'

async function oneInstance({ maxWatchesPerIdentity }: { maxWatchesPerIdentity?: number } = {}) {
  const chats = await openMemoryChats()
  closing.push(chats.destroy)
  const instance = await startCallsInstance({ chats, maxWatchesPerIdentity })
  closing.push(instance.close)
  // One request of the address answered at once: what `turn_end` frees is seen.
  const page = createChatTestClient({ chat: instance.chat, identity: instance.app.identity, address: ADDRESS, inFlight: createInFlightLimiter({ maxPerAddress: 1 }), follow: instance.calls.follow })
  await page.post({ messages: [] })
  const { id } = await chats.run(() => chats.value.create(page.clientId!))
  page.chatId = id
  return { instance, page, chatId: id }
}

/** The page's turn saying `text`, with `follow`: its lines as they come. */
async function sayFollowed(page: ChatTestClient, text: string) {
  const response = await page.send({ messages: [...page.messages, { role: 'user', content: text }], chatId: page.chatId, follow: true })
  expect(response.status).toBe(200)
  return ndjsonLines(response)
}

/** The turn's events, up to its `turn_end` (told) or the response's end. */
async function turnOf(lines: ReturnType<typeof ndjsonLines>, page: ChatTestClient) {
  const events: ChatEvent[] = []
  for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
    const event = line as ChatEvent | { type: 'turn_end' }
    if (event.type === 'turn_end') return { events, turnEnd: true }
    events.push(event)
    if (event.type === 'conversation_state') page.messages = event.messages
  }
  return { events, turnEnd: false }
}

const pickFirstTrain = (question: PluginElicitRequestEvent) => ({ action: 'accept' as const, content: { trainId: (question.context.trains as Train[])[0]!.id } })

function follows(instance: CallsInstance, page: ChatTestClient, chatId: string) {
  return handleChatsRequest({ app: instance.app, request: chatsRequest(page, `/api/chats/${chatId}/waiting`), endpoint: { action: 'waiting', id: chatId } })
}

describe('a kept chat’s turn followed on its own response', () => {
  it('ends its turn with turn_end, is no longer in flight, and then tells the page the moment its question is answered on another page', async () => {
    const { page } = await oneInstance()
    const lines = await sayFollowed(page, 'Book a train from Paris to Lyon')
    const turn = await turnOf(lines, page)
    expect(turn.turnEnd).toBe(true)
    const question = elicitRequests(turn.events)[0]!
    expect(question).toMatchObject({ key: 'pickTrain' })
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })

    // The response is held, yet the address may send its next request (one at once): the turn is over.
    const told = lines.next()
    const answered = await page.answer([{ request: question, result: pickFirstTrain(question) }])
    expect(answered.status).toBe(200)
    expect(elicitRequests(answered.events)[0]).toMatchObject({ callId: question.callId, key: 'pickSeat' })
    expect(await told).toEqual({ type: 'call_answered', callId: question.callId, elicitId: question.elicitId })
    expect(await lines.next()).toBeUndefined()
  })

  it('tells the page when the call ends elsewhere (an operator’s End) as the waiting route does, then ends', async () => {
    const { instance, page } = await oneInstance()
    const lines = await sayFollowed(page, 'Book a train from Paris to Lyon')
    const question = elicitRequests((await turnOf(lines, page)).events)[0]!
    const told = lines.next()
    expect(await instance.chat.endWaiting({ clientId: page.clientId!, callId: question.callId, reason: ENDED_BY_OPERATOR })).toBe(true)
    expect(await told).toEqual({ type: 'plugin_session_error', sessionId: question.sessionId, callId: question.callId, error: 'SESSION_ABORTED', message: ENDED_BY_OPERATOR })
    expect(await lines.next()).toBeUndefined()
  })

  it('ends with the turn, without turn_end, when the turn asked nothing', async () => {
    const { page } = await oneInstance()
    const lines = await sayFollowed(page, 'Hello')
    const turn = await turnOf(lines, page)
    expect(elicitRequests(turn.events)).toEqual([])
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
    expect(turn.turnEnd).toBe(false)
  })

  it('counts with the identity’s follows: past their bound the turn ends as any other, and a page that lets its response go frees its place', async () => {
    const { instance, page, chatId } = await oneInstance({ maxWatchesPerIdentity: 1 })
    // Another page of the person follows the chat's waiting call: the identity's one place is taken.
    const train = elicitRequests((await page.say('Book a train from Paris to Lyon')).events)[0]!
    const held = await follows(instance, page, chatId)
    expect(held.status).toBe(200)
    const answered = await page.send({ messages: page.messages, chatId, follow: true, pluginElicitResponses: [{ sessionId: train.sessionId, callId: train.callId, elicitId: train.elicitId, result: pickFirstTrain(train) }] })
    const unfollowed = await turnOf(ndjsonLines(answered), page)
    expect(elicitRequests(unfollowed.events)[0]).toMatchObject({ key: 'pickSeat' })
    expect(unfollowed.turnEnd).toBe(false)
    await held.body!.cancel()

    // A turn's held response takes the place in turn: the waiting route says so, until the page lets the response go.
    const lines = await sayFollowed(page, 'Book a train from Paris to Lyon')
    expect((await turnOf(lines, page)).turnEnd).toBe(true)
    const refused = await follows(instance, page, chatId)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_watches')
    await lines.cancel()
    const free = await follows(instance, page, chatId)
    expect(free.status).toBe(200)
    await free.body!.cancel()
  })

  it('refuses follow without a kept chat with a 400 that says so', async () => {
    const { page } = await oneInstance()
    const refused = await page.post({ messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }], follow: true })
    expect(refused.status).toBe(400)
    expect(refused.error).toMatchObject({ code: 'invalid_request', issues: [expect.objectContaining({ path: 'follow', message: expect.stringContaining('Only a turn of a kept chat (chatId)') })] })
  })

  it('is logged with the turn’s duration, the time it was then held apart, and not as cut short when the page lets it go', async () => {
    const lines: Array<Record<string, unknown>> = []
    globalForLog.serverLogger = createLogger({ level: 'info', pretty: false, content: false, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) })
    const { instance } = await oneInstance()
    const server = await serveFetch((request) => handleChatRequest({ request, chat: instance.chat, identity: instance.app.identity, follow: instance.calls.follow }))
    closing.push(server.close)
    const send = (body: object, cookie?: string) =>
      fetch(`${server.url.origin}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
    const asked = await send({ messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }], chatId: newChatId(), newChat: true, follow: true })
    const cookie = asked.headers.get('set-cookie')!.split(';')[0]!
    const held = ndjsonLines(asked)
    for (let line = await held.next(); (line as { type: string }).type !== 'turn_end'; line = await held.next()) expect(line).toBeDefined()
    // While it is held, another whole turn of the person's: its time falls within the hold.
    const other = await send({ messages: [{ role: 'user', content: 'Hello' }], chatId: newChatId(), newChat: true }, cookie)
    await other.text()
    await held.cancel()

    await vi.waitFor(() => expect(lines.filter((line) => line.msg === 'request')).toHaveLength(2))
    const [hello, followed] = [...lines.filter((line) => line.msg === 'request')] as Array<{ durationMs: number; followedMs?: number; aborted?: boolean }>
    expect(hello!.followedMs).toBeUndefined()
    expect(followed).toMatchObject({ status: 200, followedMs: expect.any(Number) })
    expect(followed!.aborted).toBeUndefined()
    expect(followed!.followedMs).toBeGreaterThanOrEqual(hello!.durationMs)
  })
})
