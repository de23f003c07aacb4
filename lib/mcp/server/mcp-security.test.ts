import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel } from '../../models'
import { createMcpTool } from '../../tools'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { McpToolShapeError } from './tool-forms'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { serveFetch } from './testing/serve-fetch'

const TOKEN = 'a-bearer-token-for-tests'
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

/** A POST sent with node:http, which (unlike fetch) lets the test name the Host header, as a browser or a proxy would. */
async function rawPost(body: unknown, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const { request } = await import('node:http')
  return new Promise((resolve, reject) => {
    const outgoing = request(
      served.url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: response.statusCode!, json: response.headers['content-type']?.includes('json') ? JSON.parse(text) : text })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(JSON.stringify(body))
  })
}

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(served.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('without MCP_AUTH_TOKEN', () => {
  beforeEach(async () => {
    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'k'.repeat(32), allowedHosts: ['chat.example'] })
    served = await serveFetch((request) => endpoint.handle(request))
  })
  afterEach(async () => {
    await served.close()
    await endpoint.close()
  })

  it('refuses a foreign Origin with 403 and accepts its own, and none', async () => {
    const refused = await post(INITIALIZE, { origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { message: 'Invalid Origin: evil.example' } })
    expect((await post(INITIALIZE, { origin: `http://127.0.0.1:${served.url.port}` })).status).toBe(200)
    expect((await post(INITIALIZE, { origin: `http://localhost:${served.url.port}` })).status).toBe(200)
    expect((await post(INITIALIZE)).status).toBe(200)
    // A page of the allowed name, addressing it by that name (through a proxy that passes Host on).
    expect((await rawPost(INITIALIZE, { host: 'chat.example', origin: 'https://chat.example' })).status).toBe(200)
    expect((await rawPost(INITIALIZE, { host: 'chat.example:8443', origin: 'https://chat.example:8443' })).status).toBe(200)
  })

  it('refuses an Origin of an allowed host on another port than the one the request was sent to', async () => {
    for (const origin of ['http://localhost:9999', `http://127.0.0.1:${Number(served.url.port) + 1}`, 'http://127.0.0.1']) {
      const refused = await post(INITIALIZE, { origin })
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringMatching(new RegExp(`^Invalid Origin: .* is not this server's origin \\(port ${served.url.port}, not`)) },
        id: null,
      })
    }
    expect((await rawPost(INITIALIZE, { host: 'chat.example', origin: 'https://chat.example:8443' })).status).toBe(403)
    expect((await rawPost(INITIALIZE, { host: 'chat.example', origin: 'http://chat.example:9999' })).status).toBe(403)
  })

  it('refuses a foreign Host with 403 (DNS rebinding)', async () => {
    expect((await rawPost(INITIALIZE, { host: 'evil.example' })).status).toBe(403)
  })

  it.each([
    ['2025-11-25', {}],
    ['2026-07-28', { 'mcp-protocol-version': '2026-07-28' }],
  ] as const)('refuses a JSON-RPC batch with 400 and -32600 (%s)', async (_era, headers) => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]
    for (const body of [batch, [INITIALIZE], []]) {
      const refused = await post(body, headers)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Batches are not supported (removed in MCP 2025-06-18); send one message per request.' },
        id: null,
      })
    }
  })

  it('refuses a batch inside a live 2025 session, and the session goes on', async () => {
    const initialized = await post(INITIALIZE)
    const headers = { 'mcp-session-id': initialized.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
    await initialized.text()
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202)
    const refused = await post([{ jsonrpc: '2.0', id: 2, method: 'ping' }], headers)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: { code: -32600 } })
    const ping = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, headers)
    expect(ping.status).toBe(200)
    expect(await ping.text()).toContain('"id":3')
  })

  it('answers bad JSON-RPC with JSON-RPC errors, never a 500', async () => {
    const notJson = await post('{not json')
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } })
    const notRpc = await post({ hello: 'world' })
    expect(notRpc.status).toBeGreaterThanOrEqual(400)
    expect(notRpc.status).toBeLessThan(500)
    expect(await notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } })
    const noSession = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    expect(noSession.status).toBe(400)
    const goneSession = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': 'not-a-session' })
    expect(goneSession.status).toBe(404)
    expect(await goneSession.json()).toMatchObject({ error: { code: -32001 } })
    const put = await fetch(served.url, { method: 'PUT' })
    expect(put.status).toBe(405)
  })

  it('gives a 2025-06-18 client a session of its revision', async () => {
    const initialized = await post({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } })
    expect(initialized.headers.get('mcp-session-id')).toBeTruthy()
    const text = await initialized.text()
    expect(text).toContain('"protocolVersion":"2025-06-18"')
  })

  it('gives 2025 clients a session: Mcp-Session-Id on initialize, then GET and DELETE on it', async () => {
    const initialized = await post(INITIALIZE)
    const sessionId = initialized.headers.get('mcp-session-id')
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)
    await initialized.text()
    const headers = { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-11-25' }
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202)
    const stream = new AbortController()
    const get = await fetch(served.url, { headers: { ...headers, accept: 'text/event-stream' }, signal: stream.signal })
    expect(get.status).toBe(200)
    expect(get.headers.get('content-type')).toContain('text/event-stream')
    expect((await fetch(served.url, { method: 'DELETE', headers })).status).toBe(200)
    stream.abort()
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, headers)).status).toBe(404)
  })
})

describe('2025 sessions', () => {
  afterEach(async () => {
    await served.close()
    await endpoint.close()
  })

  it('are capped: an idle one is closed to make room, and a busy endpoint answers 503', async () => {
    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'k'.repeat(32), maxSessions: 1, sessionIdleMs: 0 })
    served = await serveFetch((request) => endpoint.handle(request))
    const first = (await post(INITIALIZE)).headers.get('mcp-session-id')!
    const second = await post(INITIALIZE)
    expect(second.status).toBe(200)
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' })).status).toBe(404)
    await endpoint.close()
    await served.close()

    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'k'.repeat(32), maxSessions: 1 })
    served = await serveFetch((request) => endpoint.handle(request))
    expect((await post(INITIALIZE)).status).toBe(200)
    const refused = await post(INITIALIZE)
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/Too many MCP sessions/) } })
  })
})

describe('with MCP_AUTH_TOKEN', () => {
  beforeEach(async () => {
    endpoint = await createMcpEndpoint({ tools: [bookTrainTool], model: createOfflineModel(), stateSecret: 'k'.repeat(32), authToken: TOKEN })
    served = await serveFetch((request) => endpoint.handle(request))
  })
  afterEach(async () => {
    await served.close()
    await endpoint.close()
  })

  it('refuses a request without the bearer token, or with a wrong one, with 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }] as Record<string, string>[]) {
      const response = await post(INITIALIZE, headers)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/^Unauthorized/) } })
    }
  })

  it.each(['2025', '2026'] as const)('serves an official client (%s) that sends it', async (era) => {
    const client = new Client({ name: 'auth-test', version: '1' }, era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {})
    await client.connect(new StreamableHTTPClientTransport(served.url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }))
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['book_train'])
    await client.close()
  })
})

describe('registration', () => {
  it('refuses a tool whose answer cannot be an MCP form, naming the tool and the key', async () => {
    const tool = createMcpTool('plan_trip')
      .description('Plans a trip')
      .parameters(z.object({}))
      .elicits({ pickStops: z.object({ stops: z.array(z.object({ city: z.string() })) }) })
      .execute(function* () {
        return 'planned'
      })
    await expect(createMcpEndpoint({ tools: [tool], model: createOfflineModel(), stateSecret: 'k'.repeat(32) })).rejects.toThrow(McpToolShapeError)
    await expect(createMcpEndpoint({ tools: [tool], model: createOfflineModel(), stateSecret: 'k'.repeat(32) })).rejects.toThrow(
      /Tool "plan_trip" cannot be served over MCP: the response schema of elicitation 'pickStops' has property 'stops' of type array, not a primitive/,
    )
  })
})
