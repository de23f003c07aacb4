import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { createClient } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { useEmbeddedSessionStore } from '../../sessions/stores/embedded-store'
import { useRedisSessionStore } from '../../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { askedOf, connectBookingClient, firstChoices, type Asked } from './testing/booking-client'
import { endpointPool } from './testing/endpoint-pool'

const SECRET = 'm'.repeat(40)
const BOOK = { name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(() => redis?.stop())

const dataRoot = mkdtempSync(join(tmpdir(), 'mcp-sessions-'))
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }))

let prefixes = 0
/** Endpoints sharing one real Redis under a prefix of the test's own, as instances behind a load balancer. */
function onRedis(options: Parameters<typeof endpointPool>[0] extends infer T ? Partial<T> : never = {}) {
  const prefix = `anywhere-${++prefixes}:`
  const pool = endpointPool({ stateSecret: SECRET, useStore: () => useRedisSessionStore({ url: redis.url, prefix }), ...options })
  pools.push(pool)
  return { pool, prefix }
}

const pools: ReturnType<typeof endpointPool>[] = []
const clients: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  for (const pool of pools.splice(0)) await pool.stopAll()
})

/** An official v2 client of the 2025 era, answering with `answer`, through the pool's round-robin. */
async function v2Client(
  pool: ReturnType<typeof endpointPool>,
  answer: Parameters<typeof connectBookingClient>[0]['answer'] = firstChoices,
  sample?: Parameters<typeof connectBookingClient>[0]['sample'],
) {
  const connected = await connectBookingClient({ url: pool.url(), era: '2025', answer, fetch: pool.fetch, ...(sample ? { sample } : {}) })
  clients.push(connected.client)
  const logs: unknown[] = []
  connected.client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data))
  return { ...connected, logs }
}

/** What the call's log in Redis holds: every message appended to any call's stream under `prefix` (its markers, which are not messages, left out). */
async function callLogs(prefix: string): Promise<Array<{ id?: unknown; method?: string; params?: { data?: unknown } }>> {
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    const keys = await client.keys(`${prefix}events:*`)
    const messages: Array<{ id?: unknown; method?: string; params?: { data?: unknown } }> = []
    for (const key of keys) {
      const entries = (await client.sendCommand(['XRANGE', key, '-', '+'])) as unknown as Array<[string, string[]]>
      for (const [, fields] of entries) {
        const message = JSON.parse(String(fields[1])) as object
        if ('jsonrpc' in message) messages.push(message as (typeof messages)[number])
      }
    }
    return messages
  } finally {
    client.destroy()
  }
}

const issued = (logs: unknown[]) => logs.filter((data) => typeof data === 'string' && data.startsWith('Issued ticket'))

describe('2025 sessions on any instance: two endpoints on one Redis, every request to the next one', () => {
  it('the official v2 client (2025-11-25) books, its requests landing on both instances, answers included', async () => {
    const { pool } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const { client, asked, logs } = await v2Client(pool)
    await client.setLoggingLevel('info')
    const progress: (string | undefined)[] = []
    const result = await client.callTool(BOOK, { onprogress: (update) => void progress.push(update.message) })

    expect(asked.map((question) => Object.keys(question.schema.properties as object))).toEqual([['trainId'], ['seat']])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
    expect(progress).toEqual(['Searching trains from Paris to Lyon', 'Waiting for a train choice', 'Waiting for a seat choice', 'Finding a travel tip', 'Booking confirmed'])
    expect(issued(logs)).toHaveLength(1)
    // Round-robin: the handshake, the call and the two answers were spread over both instances.
    for (const instance of [a!, b!]) expect(instance.served.length, `${instance.name}: ${instance.served.join(', ')}`).toBeGreaterThanOrEqual(2)
    const answeredOn = [a!, b!].filter((instance) => instance.served.includes('POST response'))
    expect(answeredOn.length).toBeGreaterThanOrEqual(1)
    expect([...a!.served, ...b!.served].filter((request) => request === 'POST response')).toHaveLength(2)
  })

  it('asks the client’s model for the tip across instances when the client samples', async () => {
    const { pool } = onRedis()
    await pool.start()
    await pool.start()
    const { client, sampled } = await v2Client(pool, firstChoices, () => 'Take the tram from the client model.')
    const result = await client.callTool(BOOK)
    expect(sampled).toEqual(['Give one short, practical travel tip for a traveller arriving at Lyon station.'])
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Take the tram from the client model.' })
  })

  it('answers a call with arguments the tool refuses with a tool error saying why, not a crash', async () => {
    const { pool } = onRedis()
    await pool.start()
    await pool.start()
    const { client, asked } = await v2Client(pool)
    const result = await client.callTool({ name: 'book_train', arguments: { from: 'P', to: 42 } })
    expect(asked).toEqual([])
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for book_train: /)
  })

  it('ends the call with a tool error when the client answers a question with an error', async () => {
    const { pool } = onRedis()
    await pool.start()
    await pool.start()
    const { client } = await v2Client(pool, () => {
      throw new Error('the form could not be shown')
    })
    const result = await client.callTool(BOOK)
    expect(result.isError).toBe(true)
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^The client could not answer pickTrain-\d+: .*the form could not be shown/)
  })

  it('the v1 SDK client (1.32) books across instances', async () => {
    const { pool } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const client = new V1Client({ name: 'v1-anywhere', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    clients.push(client)
    await client.connect(new V1Transport(pool.url(), { fetch: pool.fetch }))
    const questions: Asked[] = []
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const question = askedOf(request.params as Parameters<typeof askedOf>[0])
      questions.push(question)
      return firstChoices(question)
    })
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data))
    await client.setLoggingLevel('info')
    const result = await client.callTool(BOOK)
    expect(questions).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(issued(logs)).toHaveLength(1)
    expect([...a!.served, ...b!.served].filter((request) => request === 'POST response')).toHaveLength(2)
    for (const instance of [a!, b!]) expect(instance.served.length).toBeGreaterThanOrEqual(2)
  })

  it('the v1 SDK client resumes by itself too when the instance holding its call’s stream goes away at a question, and books once', async () => {
    const { pool, prefix } = onRedis()
    await pool.start()
    await pool.start()
    const client = new V1Client({ name: 'v1-resumes', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    clients.push(client)
    await client.connect(new V1Transport(pool.url(), { fetch: pool.fetch }))
    let stopped = false
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (!stopped) {
        stopped = true
        await pool.live().find((instance) => instance.served.includes('POST tools/call'))!.stop()
      }
      return firstChoices(askedOf(request.params as Parameters<typeof askedOf>[0]))
    })
    const result = await client.callTool(BOOK)
    expect(stopped).toBe(true)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(pool.live()[0]!.served).toContain('GET')
    const log = await callLogs(prefix)
    expect(log.filter((message) => message.method === undefined)).toHaveLength(1)
    expect(log.filter((message) => String(message.params?.data).startsWith('Issued ticket'))).toHaveLength(1)
  })

  it('a session outlives every instance being closed and started again between initialize and the call', async () => {
    const { pool } = onRedis()
    await pool.start()
    await pool.start()
    const { client, asked } = await v2Client(pool)
    await client.setLoggingLevel('warning')
    await pool.stopAll()
    await pool.start()
    await pool.start()
    const logs: unknown[] = []
    client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params.data))
    const result = await client.callTool(BOOK)
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
    // The level set before the restart still holds: no info logs.
    expect(logs).toEqual([])
  })

  it('a call waiting at its question survives the instance that holds its stream being closed: the client resumes on the other, and it books once', async () => {
    const { pool, prefix } = onRedis()
    await pool.start()
    await pool.start()
    let holder: string | undefined
    const { client, asked, logs } = await v2Client(pool, async (question, index) => {
      if (index === 0) {
        // The instance that took the tools/call holds its stream: it goes away while the user thinks.
        const instance = pool.live().find((candidate) => candidate.served.includes('POST tools/call'))!
        holder = instance.name
        await instance.stop()
      }
      return firstChoices(question)
    })
    await client.setLoggingLevel('info')
    const result = await client.callTool(BOOK)
    expect(holder).toBeDefined()
    expect(pool.live().map((instance) => instance.name)).not.toContain(holder)
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    // The client resumed its stream with GET and Last-Event-ID on the instance left.
    expect(pool.live()[0]!.served).toContain('GET')
    expect(issued(logs)).toHaveLength(1)
    const log = await callLogs(prefix)
    expect(log.filter((message) => message.method === undefined)).toHaveLength(1)
    expect(issued(log.map((message) => message.params?.data))).toHaveLength(1)
  })

  it('a call waiting for the client’s model survives the instance that holds its stream being closed, and books once', async () => {
    const { pool, prefix } = onRedis()
    await pool.start()
    await pool.start()
    const { client, sampled, logs } = await v2Client(pool, firstChoices, async () => {
      await pool.live().find((instance) => instance.served.includes('POST tools/call'))!.stop()
      return 'Take the tram, sampled while an instance went away.'
    })
    await client.setLoggingLevel('info')
    const result = await client.callTool(BOOK)
    expect(sampled).toHaveLength(1)
    expect(pool.live()).toHaveLength(1)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', tip: 'Take the tram, sampled while an instance went away.' })
    expect(issued(logs)).toHaveLength(1)
    expect((await callLogs(prefix)).filter((message) => message.method === undefined)).toHaveLength(1)
  })

  it('answers 503 while the store does not answer, and serves the session again once it does', async () => {
    const { pool } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const opened = await fetch(a!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize()) })
    await opened.text()
    const inSession = { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
    const ping = () => fetch(b!.url, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) })
    redis.pause()
    let during: Response
    try {
      during = await ping()
    } finally {
      redis.unpause()
    }
    expect(during.status).toBe(503)
    expect(during.headers.get('retry-after')).toBe('1')
    expect(await during.json()).toMatchObject({ error: { message: 'The server cannot reach its session store right now. Try again in a moment.' } })
    const after = await ping()
    expect(after.status).toBe(200)
    await after.text()
  })

  it('an answer sent twice, to both instances at once, continues the call once: one result, one booking', async () => {
    const { pool, prefix } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    let sessionId: string | undefined
    // The load balancer, and a client that repeats its last answer to the other instance as well.
    const repeating: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { result?: { content?: { seat?: string } } }) : undefined
      if (body?.result?.content?.seat) {
        const headers = new Headers(init!.headers)
        sessionId = headers.get('mcp-session-id') ?? undefined
        const [first, second] = await Promise.all([fetch(a!.url, init), fetch(b!.url, init)])
        await second.text()
        return first
      }
      return pool.fetch(input, init)
    }
    const connected = await connectBookingClient({ url: pool.url(), era: '2025', answer: firstChoices, fetch: repeating })
    clients.push(connected.client)
    const result = await connected.client.callTool(BOOK)
    expect(sessionId).toBeDefined()
    expect(result.structuredContent).toMatchObject({ status: 'confirmed' })
    const log = await callLogs(prefix)
    expect(log.filter((message) => message.method === undefined)).toHaveLength(1)
  })

  it('DELETE on one instance ends the session on the other: its next request is 404', async () => {
    const { pool } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const opened = await fetch(a!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize()) })
    await opened.text()
    const sessionId = opened.headers.get('mcp-session-id')!
    const inSession = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }
    const ping = (url: URL) => fetch(url, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) })
    const pinged = await ping(b!.url)
    expect(pinged.status).toBe(200)
    await pinged.text()
    expect((await fetch(a!.url, { method: 'DELETE', headers: inSession })).status).toBe(200)
    const after = await ping(b!.url)
    expect(after.status).toBe(404)
    expect(await after.json()).toMatchObject({ error: { code: -32001 } })
    expect((await ping(a!.url)).status).toBe(404)
  })

  it('expires a session left idle, on every instance; one in use stays', async () => {
    // Only the clock the endpoints read (Date) is moved by the test; timers and Redis run as usual.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const { pool } = onRedis({ sessionIdleMs: 60_000 })
      const [a, b] = [await pool.start(), await pool.start()]
      const open = async () => {
        const response = await fetch(a!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize()) })
        await response.text()
        return { ...HEADERS, 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
      }
      const ping = async (url: URL, headers: Record<string, string>) => {
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) })
        await response.text()
        return response.status
      }
      const idle = await open()
      const used = await open()
      vi.setSystemTime(Date.now() + 40_000)
      expect(await ping(b!.url, used)).toBe(200)
      vi.setSystemTime(Date.now() + 40_000)
      expect(await ping(b!.url, idle)).toBe(404)
      expect(await ping(a!.url, idle)).toBe(404)
      expect(await ping(a!.url, used)).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('holds a client’s session cap across instances, and gives a place back when a session ends on either', async () => {
    const { pool } = onRedis({ maxSessionsPerClient: 2 })
    const [a, b] = [await pool.start(), await pool.start()]
    const open = async (url: URL) => {
      const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'x-forwarded-for': '203.0.113.9' }, body: JSON.stringify(initialize()) })
      await response.text()
      return { status: response.status, sessionId: response.headers.get('mcp-session-id') }
    }
    const first = await open(a!.url)
    expect(first.status).toBe(200)
    expect((await open(b!.url)).status).toBe(200)
    expect((await open(a!.url)).status).toBe(429)
    expect((await open(b!.url)).status).toBe(429)
    const ended = await fetch(b!.url, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': first.sessionId!, 'mcp-protocol-version': '2025-11-25' } })
    expect(ended.status).toBe(200)
    expect((await open(a!.url)).status).toBe(200)
    expect((await open(b!.url)).status).toBe(429)
  })

  it('refuses a forged answer with 400 and lets the call go on; ignores a response to nothing (202, as the SDK does); refuses another session’s Last-Event-ID', async () => {
    const { pool } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const openSession = async () => {
      const response = await fetch(a!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize()) })
      await response.text()
      const headers = { ...HEADERS, 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
      await fetch(b!.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
      return headers
    }
    const mine = await openSession()
    const theirs = await openSession()
    // A call in `mine`, read up to its first question.
    const call = await fetch(a!.url, { method: 'POST', headers: mine, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: BOOK }) })
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    while (!text.includes('elicitation/create')) text += (await reader.read()).value ?? ''
    await reader.cancel()
    const primingId = /^id: (.+)$/m.exec(text)![1]!
    const question = JSON.parse(/"method":"elicitation\/create"/.test(text) ? text.split('\n').find((line) => line.includes('elicitation/create'))!.slice('data: '.length) : '{}') as { id: string; params: Parameters<typeof askedOf>[0] }
    expect(question.id).toMatch(/^mcp-call\//)

    const post = (url: URL, headers: Record<string, string>, body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })
    const answer = { action: 'accept', content: firstChoices(askedOf(question.params)).content }
    // The real id with its signature changed, the real id from another session, a made-up call: refused, nothing recorded.
    const forged = question.id.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))
    for (const [headers, id] of [
      [mine, forged],
      [theirs, question.id],
      [mine, 'mcp-call/00000000-0000-4000-8000-000000000000/1/pickTrain-1/AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      const refused = await post(b!.url, headers, { jsonrpc: '2.0', id, result: answer })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/^Bad Request: /) } })
    }
    // A response to no request at all: the SDK's transport accepts it and drops it.
    expect((await post(b!.url, mine, { jsonrpc: '2.0', id: 424242, result: {} })).status).toBe(202)

    // Another session cannot read this call's stream.
    const stolen = await fetch(b!.url, { headers: { ...theirs, 'last-event-id': primingId } })
    expect(stolen.status).toBe(400)
    expect(await stolen.json()).toMatchObject({ error: { message: 'Bad Request: Last-Event-ID names no stream of this session.' } })

    // The call itself goes on: the real answer on the other instance, and its stream resumed there shows the next question.
    expect((await post(b!.url, mine, { jsonrpc: '2.0', id: question.id, result: answer })).status).toBe(202)
    const resumed = await fetch(b!.url, { headers: { ...mine, 'last-event-id': primingId } })
    expect(resumed.status).toBe(200)
    const resumedReader = resumed.body!.pipeThrough(new TextDecoderStream()).getReader()
    let resumedText = ''
    while (!resumedText.includes('Select your seat')) resumedText += (await resumedReader.read()).value ?? ''
    await resumedReader.cancel()
    // What it missed first (the train question), then the seat question: every event with an id.
    expect(resumedText.indexOf('Select your train')).toBeLessThan(resumedText.indexOf('Select your seat'))
    for (const block of resumedText.split('\n\n').filter((chunk) => chunk.includes('data: {'))) expect(block).toMatch(/^event: message\nid: [0-9a-f-]{36}\/\d+-\d+\n/)
  })
})

describe('a relayed call cancelled by its client (notifications/cancelled, MCP’s Stop)', () => {
  it('ends where it is, on every instance: a later answer continues nothing, its stream ends without a result, nothing is booked', async () => {
    const { pool, prefix } = onRedis()
    const [a, b] = [await pool.start(), await pool.start()]
    const opened = await fetch(a!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize()) })
    await opened.text()
    const session = { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }
    const post = (url: URL, body: unknown) => fetch(url, { method: 'POST', headers: session, body: JSON.stringify(body) })
    await post(b!.url, { jsonrpc: '2.0', method: 'notifications/initialized' })
    const call = await post(a!.url, { jsonrpc: '2.0', id: 'booking-1', method: 'tools/call', params: BOOK })
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    while (!text.includes('elicitation/create')) text += (await reader.read()).value ?? ''
    const primingId = /^id: (.+)$/m.exec(text)![1]!
    const question = JSON.parse(text.split('\n').find((line) => line.includes('elicitation/create'))!.slice('data: '.length)) as { id: string; params: Parameters<typeof askedOf>[0] }

    // Stop, on the other instance: the stream the first one holds ends, with no result.
    expect((await post(b!.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'booking-1', reason: 'Stop' } })).status).toBe(202)
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value
    expect(text).not.toContain('"result"')
    // The answer that comes anyway is accepted and changes nothing.
    expect((await post(b!.url, { jsonrpc: '2.0', id: question.id, result: firstChoices(askedOf(question.params)) })).status).toBe(202)
    const resumed = await fetch(a!.url, { headers: { ...session, 'last-event-id': primingId } })
    expect(resumed.status).toBe(200)
    const rest = await resumed.text()
    expect(rest).toContain('Select your train')
    expect(rest).not.toContain('Select your seat')
    const log = await callLogs(prefix)
    expect(log.filter((message) => 'jsonrpc' in message && message.method === undefined)).toEqual([])
    expect(log.some((message) => JSON.stringify(message).includes('Select your seat'))).toBe(false)
  })
})

describe('2025 sessions on the embedded store (DATA_DIR)', () => {
  it('a session and a call waiting at its question outlive a restart of the only instance', async () => {
    const directory = join(dataRoot, 'restart')
    const pool = endpointPool({ stateSecret: SECRET, useStore: () => useEmbeddedSessionStore({ directory }) })
    pools.push(pool)
    await pool.start()
    let restarted = false
    const { client, asked, logs } = await v2Client(pool, async (question, index) => {
      if (index === 0) {
        await pool.stopAll()
        await pool.start()
        restarted = true
      }
      return firstChoices(question)
    })
    await client.setLoggingLevel('info')
    // Between initialize and the call, too.
    await pool.stopAll()
    await pool.start()
    const result = await client.callTool(BOOK)
    expect(restarted).toBe(true)
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
    expect(issued(logs)).toHaveLength(1)
  })
})

function initialize() {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } } }
}

export type { Client }
