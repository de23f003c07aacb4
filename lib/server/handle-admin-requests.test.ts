import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { createChatServer, type ChatServer } from '../engine'
import { createChatTestClient, elicitRequests, type ChatTestClient } from '../engine/testing/chat-test-client'
import { createOfflineModel } from '../models'
import type { PluginElicitRequestEvent } from '../protocol/events'
import type { OperatorView } from '../protocol/operator-view'
import { createRefusalTally } from '../telemetry'
import { getAdminAccess } from './admin-access'
import { handleAdminRequest, type AdminApp } from './handle-admin-requests'

const TOKEN = 'an-admin-token-for-this-test'
let chat: ChatServer
let person: ChatTestClient
let waiting: PluginElicitRequestEvent
let app: AdminApp

beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], instance: 'instance-t' })
  person = createChatTestClient({ chat })
  waiting = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
  app = {
    access: await getAdminAccess({ ADMIN_TOKEN: TOKEN }),
    operator: async () => ({
      instance: 'instance-t',
      listWaiting: () => chat.listWaiting(),
      endWaiting: (options) => chat.endWaiting(options),
      servers: () => [{ name: 'files', status: 'failed', error: 'spawn ENOENT' }],
      refusals: createRefusalTally(),
    }),
  }
})
afterEach(() => chat.close())

const request = (path: string, init: RequestInit & { cookie?: string } = {}) =>
  new Request(`http://localhost${path}`, { ...init, headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.headers as Record<string, string>) } })
const json = (body: unknown, cookie?: string) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, cookie })

async function adminCookie(): Promise<string> {
  const response = await handleAdminRequest({ app, request: request('/api/admin/session', json({ token: TOKEN })), endpoint: 'start-session' })
  expect(response.status).toBe(200)
  return response.headers.get('set-cookie')!.split(';')[0]!
}

describe('the admin routes', () => {
  it('refuse anyone but an admin with admin_only, and a wrong token with wrong_admin_token', async () => {
    const view = await handleAdminRequest({ app, request: request('/api/admin/operator'), endpoint: 'operator' })
    expect(view.status).toBe(401)
    expect((await view.json()).error.code).toBe('admin_only')
    const forged = await handleAdminRequest({ app, request: request('/api/admin/operator', { cookie: 'elicit_admin=99999999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), endpoint: 'operator' })
    expect(forged.status).toBe(401)
    const end = await handleAdminRequest({ app, request: request('/api/admin/waiting-calls/end', json({ account: '0123456789abcdef', callId: waiting.callId })), endpoint: 'end-waiting-call' })
    expect(end.status).toBe(401)
    const wrong = await handleAdminRequest({ app, request: request('/api/admin/session', json({ token: 'not-it' })), endpoint: 'start-session' })
    expect(wrong.status).toBe(401)
    expect((await wrong.json()).error).toEqual({ code: 'wrong_admin_token', message: 'That is not the admin token.' })
    expect(wrong.headers.get('set-cookie')).toBeNull()
    // The call still waits.
    expect(await chat.listWaiting()).toHaveLength(1)
  })

  it('show an admin the waiting call, and end it: the person’s answer then hears an operator ended it', async () => {
    const cookie = await adminCookie()
    const response = await handleAdminRequest({ app, request: request('/api/admin/operator', { cookie }), endpoint: 'operator' })
    expect(response.status).toBe(200)
    const view = (await response.json()) as OperatorView
    expect(view.waiting).toEqual([
      { account: expect.stringMatching(/^[0-9a-f]{16}$/), callId: waiting.callId, tool: 'book_train', question: 'pickTrain', since: expect.any(String), expiresAt: expect.any(String), instance: 'instance-t', hot: true },
    ])
    expect(view.servers).toEqual([{ name: 'files', status: 'failed', error: 'spawn ENOENT' }])
    expect(view.usage).toMatchObject({ counted: false, accounts: [] })
    const { account } = view.waiting[0]!

    const ended = await handleAdminRequest({ app, request: request('/api/admin/waiting-calls/end', json({ account, callId: waiting.callId }, cookie)), endpoint: 'end-waiting-call' })
    expect(ended.status).toBe(200)
    expect(await chat.listWaiting()).toEqual([])
    const again = await handleAdminRequest({ app, request: request('/api/admin/waiting-calls/end', json({ account, callId: waiting.callId }, cookie)), endpoint: 'end-waiting-call' })
    expect(again.status).toBe(404)
    expect((await again.json()).error.code).toBe('call_not_waiting')

    const turn = await person.answer([{ request: waiting, result: { action: 'accept', content: { trainId: 'any' } } }])
    expect(turn.status).toBe(200)
    expect(turn.events).toContainEqual({ type: 'plugin_session_error', sessionId: waiting.sessionId, callId: waiting.callId, error: 'SESSION_ABORTED', message: 'An operator ended this question.' })
  })

  it('refuse a body that does not fit with a 4xx and its code, never a 500', async () => {
    const cookie = await adminCookie()
    const end = (init: RequestInit & { cookie?: string }) => handleAdminRequest({ app, request: request('/api/admin/waiting-calls/end', init), endpoint: 'end-waiting-call' })
    const cases: Array<[RequestInit & { cookie?: string }, number, string]> = [
      [json({ account: 'not-hex', callId: waiting.callId }, cookie), 400, 'invalid_request'],
      [json({ account: '0123456789abcdef', callId: waiting.callId }, cookie), 404, 'call_not_waiting'],
      [{ method: 'POST', body: '{', headers: { 'content-type': 'application/json' }, cookie }, 400, 'invalid_json'],
      [{ method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' }, cookie }, 415, 'unsupported_media_type'],
      [json({ account: '0123456789abcdef', callId: 'x'.repeat(5000) }, cookie), 413, 'body_too_large'],
    ]
    for (const [init, status, code] of cases) {
      const response = await end(init)
      expect([response.status, (await response.json()).error.code]).toEqual([status, code])
    }
  })
})
