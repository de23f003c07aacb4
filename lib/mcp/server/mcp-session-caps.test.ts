import type { Client } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createOfflineModel } from '../../models'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from './mcp-endpoint'
import { connectBookingClient, firstChoices } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

const TOKEN = 'a-bearer-token-for-tests'
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

async function start(options: Partial<McpEndpointOptions> = {}) {
  endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'k'.repeat(32), ...options })
  served = await serveFetch((request) => endpoint.handle(request))
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await served.close()
  await endpoint.close()
})

/** A request as it reaches the endpoint from `address` (the server puts the TCP peer in X-Forwarded-For). */
function send(address: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(served.url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': address, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

async function initialize(address: string, headers: Record<string, string> = {}): Promise<{ status: number; sessionId: string | null; retryAfter: string | null; body: unknown }> {
  const response = await send(address, { body: INITIALIZE, headers })
  const text = await response.text()
  return {
    status: response.status,
    sessionId: response.headers.get('mcp-session-id'),
    retryAfter: response.headers.get('retry-after'),
    body: response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : text,
  }
}

const ping = (address: string, sessionId: string) =>
  send(address, { body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } })

describe('one greedy client cannot take every 2025 session', () => {
  it('1,100 initializes from one address get its 100 sessions and 429s; another address still initializes and books', async () => {
    await start()
    const statuses: number[] = []
    let refusal: Awaited<ReturnType<typeof initialize>> | undefined
    // 100 at a time, at once: the cap holds for requests that arrive together.
    for (let wave = 0; wave < 11; wave++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => initialize('203.0.113.7')))
      for (const answer of answers) {
        statuses.push(answer.status)
        if (answer.status === 429) refusal ??= answer
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(100)
    expect(statuses.filter((status) => status === 429)).toHaveLength(1000)
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(refusal!.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'This address has 100 MCP sessions open, the most one client may have; close one (DELETE) or wait.' },
      id: null,
    })

    const { client, asked } = await connectBookingClient({ url: served.url, era: '2025', answer: firstChoices, headers: { 'x-forwarded-for': '198.51.100.4' } })
    clients.push(client)
    const result = await client.callTool({ name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } })
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    // 1,100 real HTTP requests: seconds alone, many more on a machine busy with other suites; what is asserted is counts, not time.
  }, 90_000)

  it('counts an IPv6 client by its /64', async () => {
    await start({ maxSessionsPerClient: 2 })
    expect((await initialize('2001:db8:1:2::1')).status).toBe(200)
    expect((await initialize('2001:db8:1:2::ffff')).status).toBe(200)
    expect((await initialize('2001:db8:1:2:abcd::9')).status).toBe(429)
    expect((await initialize('2001:db8:1:3::1')).status).toBe(200)
  })

  it('gives the place of a session its client ends (DELETE) to that client’s next one', async () => {
    await start({ maxSessionsPerClient: 2 })
    const first = await initialize('203.0.113.7')
    expect((await initialize('203.0.113.7')).status).toBe(200)
    expect((await initialize('203.0.113.7')).status).toBe(429)
    const ended = await send('203.0.113.7', { method: 'DELETE', headers: { 'mcp-session-id': first.sessionId!, 'mcp-protocol-version': '2025-11-25' } })
    expect(ended.status).toBe(200)
    expect((await initialize('203.0.113.7')).status).toBe(200)
    expect((await initialize('203.0.113.7')).status).toBe(429)
  })

  it('over its cap, closes the client’s own least recently used session unused for a minute, never another client’s', async () => {
    // Only the clock the endpoint reads (Date) is moved by the test; timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      await start({ maxSessionsPerClient: 2 })
      const other = await initialize('198.51.100.4')
      const oldest = await initialize('203.0.113.7')
      const newer = await initialize('203.0.113.7')
      // Both of its sessions were used just now: the client is refused, and told when one may be closed.
      const refused = await initialize('203.0.113.7')
      expect(refused.status).toBe(429)
      expect(Number(refused.retryAfter)).toBe(60)
      vi.setSystemTime(Date.now() + 61_000)
      expect((await ping('203.0.113.7', newer.sessionId!)).status).toBe(200)
      const third = await initialize('203.0.113.7')
      expect(third.status).toBe(200)
      expect((await ping('203.0.113.7', oldest.sessionId!)).status).toBe(404)
      expect((await ping('203.0.113.7', newer.sessionId!)).status).toBe(200)
      expect((await ping('198.51.100.4', other.sessionId!)).status).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps a share for others: one client holds its cap, the rest of the server stays open, and a full server answers 503', async () => {
    await start({ maxSessionsPerClient: 3, maxSessions: 5 })
    for (let index = 0; index < 6; index++) await initialize('203.0.113.7')
    expect((await initialize('198.51.100.4')).status).toBe(200)
    expect((await initialize('198.51.100.5')).status).toBe(200)
    const full = await initialize('198.51.100.6')
    expect(full.status).toBe(503)
    expect(Number(full.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(full.body).toMatchObject({ error: { code: -32000, message: 'Too many MCP sessions are open; close one or try again later.' } })
  })

  it('does not count requests that open no session', async () => {
    await start({ maxSessionsPerClient: 1 })
    for (let index = 0; index < 3; index++) expect((await send('203.0.113.7', { body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })).status).toBe(400)
    expect((await initialize('203.0.113.7')).status).toBe(200)
  })

  it('with MCP_AUTH_TOKEN, also counts sessions per token, from any address', async () => {
    await start({ maxSessionsPerClient: 2, authToken: TOKEN })
    const authorized = { authorization: `Bearer ${TOKEN}` }
    expect((await initialize('203.0.113.7', authorized)).status).toBe(200)
    expect((await initialize('198.51.100.4', authorized)).status).toBe(200)
    const refused = await initialize('198.51.100.5', authorized)
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ error: { code: -32000, message: 'This token has 2 MCP sessions open, the most one client may have; close one (DELETE) or wait.' } })
  })
})
