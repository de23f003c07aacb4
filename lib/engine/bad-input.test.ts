import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import type { Train } from '@/fixtures/book-train/trains'
import { createOfflineModel } from '../models'
import { createChatServer, type ChatServer } from './chat-server'
import { handleChatRequest } from '../http/handle-chat-request'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createChatTestClient, elicitRequests, type ChatTestClient } from './testing/chat-test-client'

let chat: ChatServer
let client: ChatTestClient
let waiting: PluginElicitRequestEvent

beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool] })
  client = createChatTestClient({ chat })
  waiting = elicitRequests((await client.say('Book a train from Paris to Lyon')).events)[0]!
})
afterEach(() => chat.close())

/** After any refused request, the waiting booking must still go on from where it was. */
async function expectBookingIntact() {
  expect(await chat.listActive()).toMatchObject([{ id: waiting.sessionId, status: 'awaiting_elicit' }])
  const trains = waiting.context.trains as Train[]
  const turn = await client.answer([{ request: waiting, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
  expect(elicitRequests(turn.events)[0]?.key).toBe('pickSeat')
}

async function raw(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const request = new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { ...headers, ...(client.cookie ? { cookie: client.cookie } : {}) },
    body,
  })
  const response = await handleChatRequest({ request, chat })
  return { status: response.status, body: await response.json() }
}

describe('malformed requests get a 4xx with a useful message and harm nothing', () => {
  it('refuses a body that is not JSON', async () => {
    const response = await raw('{"messages": [')
    expect(response).toMatchObject({ status: 400, body: { error: { code: 'invalid_json', message: expect.stringContaining('not valid JSON') } } })
    await expectBookingIntact()
  })

  it('refuses another media type', async () => {
    const response = await raw('messages=1', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(response).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } })
    await expectBookingIntact()
  })

  it('refuses an oversized body', async () => {
    const response = await raw(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(3 * 1024 * 1024) }] }))
    expect(response).toMatchObject({ status: 413, body: { error: { code: 'body_too_large' } } })
    await expectBookingIntact()
  })

  it.each([
    ['a body that is not an object', '[]'],
    ['missing messages', '{}'],
    ['an unknown role', JSON.stringify({ messages: [{ role: 'wizard', content: 'hi' }] })],
    ['content of the wrong type', JSON.stringify({ messages: [{ role: 'user', content: 42 }] })],
    ['a response without a result', JSON.stringify({ messages: [], pluginElicitResponses: [{ sessionId: 'a', callId: 'a', elicitId: 'x' }] })],
    ['an unknown action', JSON.stringify({ messages: [], pluginElicitResponses: [{ sessionId: 'a', callId: 'a', elicitId: 'x', result: { action: 'maybe' } }] })],
  ])('refuses %s with the issues', async (_name, body) => {
    const response = await raw(body)
    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({ code: 'invalid_request', issues: expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]) })
    await expectBookingIntact()
  })

  it('refuses an empty conversation and one that ends with the assistant', async () => {
    expect(await client.post({ messages: [] })).toMatchObject({ status: 400, error: { code: 'invalid_conversation' } })
    const ended = await client.post({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] })
    expect(ended).toMatchObject({ status: 400, error: { code: 'invalid_conversation', message: expect.stringContaining('assistant') } })
    await expectBookingIntact()
  })

  it('refuses a conversation whose tool message answers no tool call', async () => {
    const response = await client.post({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'nope', content: 'x' }] })
    expect(response).toMatchObject({
      status: 400,
      error: { code: 'invalid_conversation', issues: [{ path: 'messages.1', message: expect.stringContaining('unknown tool call') }] },
    })
    await expectBookingIntact()
  })

  it('refuses an answer or abort for a tool call that is not pending', async () => {
    const answer = await client.post({
      messages: client.messages,
      pluginElicitResponses: [{ sessionId: 'call_other', callId: 'call_other', elicitId: waiting.elicitId, result: { action: 'decline' } }],
    })
    expect(answer).toMatchObject({ status: 400, error: { code: 'unknown_tool_call' } })
    const abort = await client.post({ messages: client.messages, pluginAbort: { sessionId: 'call_other' } })
    expect(abort).toMatchObject({ status: 400, error: { code: 'unknown_tool_call' } })
    await expectBookingIntact()
  })

  it('refuses answering the same session twice in one request, or answering and aborting it', async () => {
    const response = { sessionId: waiting.sessionId, callId: waiting.callId, elicitId: waiting.elicitId, result: { action: 'decline' } }
    const twice = await client.post({ messages: client.messages, pluginElicitResponses: [response, response] })
    expect(twice).toMatchObject({ status: 400, error: { code: 'duplicate_response' } })
    const both = await client.post({ messages: client.messages, pluginElicitResponses: [response], pluginAbort: { sessionId: waiting.sessionId } })
    expect(both).toMatchObject({ status: 400, error: { code: 'duplicate_response' } })
    await expectBookingIntact()
  })

  it('ignores hostile extra fields such as __proto__', async () => {
    const body = `{"messages":[{"role":"user","content":"hi","__proto__":{"polluted":true}}],"__proto__":{"polluted":true}}`
    const request = new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const response = await handleChatRequest({ request, chat })
    expect(response.status).toBe(200)
    await response.text()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    await expectBookingIntact()
  })
})

describe('the client identity cookie', () => {
  it('is HttpOnly, given once, and not replaced while valid', async () => {
    const fresh = await handleChatRequest({
      request: new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      chat,
    })
    expect(fresh.headers.get('set-cookie')).toMatch(/^chat_client_id=[\w-]{32,}\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax/)
    const again = await handleChatRequest({
      request: new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: client.cookie! },
        body: '{}',
      }),
      chat,
    })
    expect(again.headers.get('set-cookie')).toBeNull()
  })

  it('replaces a forged, guessable identity', async () => {
    const forged = await handleChatRequest({
      request: new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'chat_client_id=admin' },
        body: '{}',
      }),
      chat,
    })
    expect(forged.headers.get('set-cookie')).toMatch(/^chat_client_id=[\w-]{32,}/)
  })
})
