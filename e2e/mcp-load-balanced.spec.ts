import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { test as base, expect } from '@playwright/test'
import { QUESTION_META_KEY, type QuestionMeta } from '../lib/protocol/question-form'
import { askedOf, connectBookingClient, firstChoices, type Asked } from '../lib/mcp/server/testing/booking-client'
import { confirmedBooking, describeTurn, flightAnswer, seatAnswer } from '../plugins/book-flight/e2e/booking-answers'
import { createChatApi, eventsOf, type ChatTurn } from './support/chat-api'
import { startCluster, type Cluster } from './support/load-balanced-cluster'
import { describeRequest, documentedNginxBlock, nginxDir, nginxVersion, testNginxConfig, wrapInHttpContext } from './support/nginx-process'

// Issue 29: the MCP clients people use, and the chat, behind a real load balancer. Two
// production instances on one Redis behind Debian's nginx with plain round-robin, configured
// with the block docs/deploying.md gives (support/nginx-process.ts reads it from there), and
// started as that document says. Run `npm run build` first.

const test = base.extend<{ cluster: Cluster; ownCluster: Cluster }, { sharedCluster: Cluster }>({
  // The tests that only book share one cluster per worker; each reads nginx's log from where it started.
  sharedCluster: [
    async ({}, use) => {
      const cluster = await startCluster()
      await use(cluster)
      await cluster.stop()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  cluster: async ({ sharedCluster }, use, testInfo) => {
    await use(sharedCluster)
    if (testInfo.status !== testInfo.expectedStatus) await sharedCluster.attachOutputs(testInfo)
  },
  // The tests that restart instances have a cluster of their own.
  ownCluster: async ({}, use, testInfo) => {
    const cluster = await startCluster()
    await use(cluster)
    if (testInfo.status !== testInfo.expectedStatus) await cluster.attachOutputs(testInfo)
    await cluster.stop()
  },
})

const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }
/** How long a call may take, rolling restart included; the clients' own default is 60 s. */
const CALL_TIMEOUT_MS = 60_000

const mcpUrl = (cluster: Cluster) => new URL('/api/mcp', cluster.url)
const questionKey = (asked: Asked) => (asked.meta[QUESTION_META_KEY] as QuestionMeta | undefined)?.key

/**
 * Waits until nginx has logged requests to `path`, from the `since`th on, answered by every
 * instance: round-robin really spread the client's requests, so the flow crossed instances.
 */
async function servedByEveryInstance(cluster: Cluster, { path: prefix, since }: { path: string; since: number }) {
  const instances = cluster.instances().length
  const served = (requests: ReturnType<Cluster['nginx']['requests']>) =>
    new Set(requests.slice(since).filter((request) => request.uri.startsWith(prefix)).map((request) => cluster.instanceAt(request.servedBy)).filter((index) => index !== undefined))
  const requests = await cluster.nginx.waitForRequests((logged) => served(logged).size === instances)
  expect(served(requests).size, requests.slice(since).map(describeRequest).join('\n')).toBe(instances)
}

/** What a client reported on its own while `operation` ran (a stream cut, a reconnection refused), added to the operation's error. */
async function reporting<T>(client: { onerror?: (error: Error) => void }, operation: (lost: Promise<never>) => Promise<T>): Promise<T> {
  const reported: string[] = []
  let markLost: (error: Error) => void = () => {}
  const lost = new Promise<never>((_, reject) => (markLost = reject))
  lost.catch(() => {})
  client.onerror = (error) => {
    reported.push(error.message)
    // The answer to the server's question did not reach the server: the call cannot go on.
    if (/Failed to send (an error )?response/.test(error.message)) markLost(error)
  }
  try {
    return await operation(lost)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\nThe client reported meanwhile:\n${reported.map((line) => `  ${line}`).join('\n') || '  (nothing)'}`, { cause: error })
  }
}

/** The question a chat turn ends on, checked to be `key`. */
function question(turn: ChatTurn, key: string) {
  expect(turn.status, describeTurn(turn)).toBe(200)
  expect(eventsOf(turn.events, 'plugin_session_error'), describeTurn(turn)).toEqual([])
  expect(turn.elicit, describeTurn(turn)).toMatchObject({ type: 'plugin_elicit_request', key })
  return turn.elicit!
}

/** A rolling deploy done badly: each instance killed outright (`kill -9`), then started again, one after the other. */
async function rollingKill(cluster: Cluster) {
  for (const index of cluster.instances().keys()) {
    await cluster.kill(index, 'SIGKILL')
    await cluster.start(index)
  }
}

/**
 * The official v2 client in 2025-11-25 mode, whose answer to the flight question waits until the
 * test releases it; it records what it was asked and the logs it was sent.
 */
async function connectHeldClient(url: URL) {
  const client = new Client({ name: 'load-balanced-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  const transport = new StreamableHTTPClientTransport(url)
  const asked: Asked[] = []
  const logs: string[] = []
  let flightAsked: () => void = () => {}
  const atFlightQuestion = new Promise<void>((resolve) => (flightAsked = resolve))
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  client.setRequestHandler('elicitation/create', async (request) => {
    const question = askedOf(request.params as Parameters<typeof askedOf>[0])
    asked.push(question)
    if (questionKey(question) === 'pickFlight') {
      flightAsked()
      await released
    }
    return firstChoices(question) as never
  })
  client.setNotificationHandler('notifications/message', (notification) => void logs.push(String(notification.params.data)))
  await client.connect(transport)
  return { client, transport, asked, logs, atFlightQuestion, release }
}

test.describe('MCP and the chat behind nginx, round-robin over two instances on one Redis', () => {
  test.describe.configure({ timeout: 120_000 })

  test("docs/deploying.md's nginx block loads on the nginx installed, with TLS and HTTP/2", async () => {
    const version = nginxVersion()
    const dir = nginxDir()
    try {
      const certificate = path.join(dir, 'cert.pem')
      const key = path.join(dir, 'key.pem')
      const openssl = spawnSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=chat.example.com', '-days', '1', '-keyout', key, '-out', certificate],
        { encoding: 'utf8' },
      )
      expect(openssl.error?.message, 'openssl makes the self-signed certificate (scripts/ensure-nginx.sh installs it)').toBeUndefined()
      expect(openssl.status, openssl.stderr).toBe(0)
      const block = documentedNginxBlock()
        .replace(/(ssl_certificate\s+)\S+;/, `$1${certificate};`)
        .replace(/(ssl_certificate_key\s+)\S+;/, `$1${key};`)
      expect(block).toContain(certificate)
      expect(block).toContain(key)

      const documented = testNginxConfig({ config: wrapInHttpContext({ block, dir }), dir })
      expect(documented.output).toMatch(/test is successful/)
      expect(documented.ok).toBe(true)

      // The form the document offers for 1.25.1 and later loads there, and older ones refuse it, as it says.
      expect(block).toMatch(/listen 443 ssl http2;/)
      const modern = testNginxConfig({ config: wrapInHttpContext({ block: block.replace('listen 443 ssl http2;', 'listen 443 ssl;\n  http2 on;'), dir }), dir })
      const [major, minor, patch] = version.split('.').map(Number) as [number, number, number]
      const atLeast1251 = major > 1 || (major === 1 && (minor > 25 || (minor === 25 && patch >= 1)))
      if (atLeast1251) expect(modern.output).toMatch(/test is successful/)
      else expect(modern.output, `nginx ${version}`).toMatch(/unknown directive "http2"/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the official v2 client in 2025-11-25 mode books a flight, its session served by both instances', async ({ cluster }) => {
    const since = cluster.nginx.requests().length
    const { client, asked } = await connectBookingClient({ url: mcpUrl(cluster), era: '2025', answer: firstChoices })
    try {
      const result = await reporting(client, () => client.callTool(BOOK, { timeout: CALL_TIMEOUT_MS }))
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
    } finally {
      await client.close()
    }
    await servedByEveryInstance(cluster, { path: '/api/mcp', since })
  })

  test('the official v1 client (@modelcontextprotocol/sdk, 2025-11-25) books a flight, its session served by both instances', async ({ cluster }) => {
    const since = cluster.nginx.requests().length
    const client = new V1Client({ name: 'load-balanced-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    const asked: Asked[] = []
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const question = askedOf(request.params as Parameters<typeof askedOf>[0])
      asked.push(question)
      return firstChoices(question)
    })
    try {
      const result = await reporting(client, async () => {
        await client.connect(new V1Transport(mcpUrl(cluster)))
        return client.callTool(BOOK, undefined, { timeout: CALL_TIMEOUT_MS })
      })
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
    } finally {
      await client.close()
    }
    await servedByEveryInstance(cluster, { path: '/api/mcp', since })
  })

  test('the official v2 client in 2026-07-28 mode books a flight, its rounds served by both instances', async ({ cluster }) => {
    const since = cluster.nginx.requests().length
    const { client, asked } = await connectBookingClient({ url: mcpUrl(cluster), era: '2026', answer: firstChoices })
    try {
      const result = await reporting(client, () => client.callTool(BOOK, { timeout: CALL_TIMEOUT_MS }))
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
    } finally {
      await client.close()
    }
    await servedByEveryInstance(cluster, { path: '/api/mcp', since })
  })

  test('the chat books a flight, its turns served by both instances', async ({ cluster }) => {
    const since = cluster.nginx.requests().length
    const chat = createChatApi({ baseURL: cluster.url })
    const flightQuestion = question(await chat.startBooking('Book a flight from NYC to LAX'), 'pickFlight')
    const { flight, content: flightChoice } = flightAnswer(flightQuestion, 1)
    const seatQuestion = question(await chat.answer({ event: flightQuestion, content: flightChoice }), 'pickSeat')
    const { seat, content: seatChoice } = seatAnswer(seatQuestion)
    const done = await chat.answer({ event: seatQuestion, content: seatChoice })
    expect(done.status, describeTurn(done)).toBe(200)
    expect(confirmedBooking(done)).toMatchObject({ status: 'confirmed', flight: { id: flight.id }, seat })
    await servedByEveryInstance(cluster, { path: '/api/chat', since })
  })

  test('a 2025 session outlives a restart of every instance between initialize and the call', async ({ ownCluster: cluster }) => {
    const { client, transport, asked, release } = await connectHeldClient(mcpUrl(cluster))
    release()
    try {
      const sessionId = transport.sessionId
      expect(sessionId).toMatch(/\S/)

      // Both killed outright, then both started again: a deploy that restarts everything at once.
      await Promise.all([cluster.kill(0, 'SIGKILL'), cluster.kill(1, 'SIGKILL')])
      await Promise.all([cluster.start(0), cluster.start(1)])
      const since = cluster.nginx.requests().length

      const result = await reporting(client, () => client.callTool(BOOK, { timeout: CALL_TIMEOUT_MS }))
      // The same session, not a new one the client opened by itself.
      expect(transport.sessionId).toBe(sessionId)
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
      await servedByEveryInstance(cluster, { path: '/api/mcp', since })
    } finally {
      await client.close()
    }
  })

  test('a 2025 call waiting at its flight question survives a rolling kill -9 of both instances and books once', async ({ ownCluster: cluster }) => {
    const { client, transport, asked, logs, atFlightQuestion, release } = await connectHeldClient(mcpUrl(cluster))
    try {
      const sessionId = transport.sessionId
      await client.setLoggingLevel('info')
      const progress: string[] = []
      const result = await reporting(client, async (lost) => {
        const call = client.callTool(BOOK, { timeout: CALL_TIMEOUT_MS, onprogress: (update) => void progress.push(update.message ?? '') })
        // Awaited below, or cut by close() when the test ends early.
        call.catch(() => {})
        // The client holds the flight question, unanswered, and the tool waits for its answer.
        await Promise.race([atFlightQuestion, call])
        expect(asked.map(questionKey)).toEqual(['pickFlight'])

        await rollingKill(cluster)

        release()
        return await Promise.race([call, lost])
      })

      expect(transport.sessionId).toBe(sessionId)
      const booking = result.structuredContent as { status: string; ticketNumber: string; seat: string }
      expect(booking).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/), seat: firstChoices(asked[1]!).content.seat })
      // Each question asked once: the answer continued the call, nothing started it again.
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      // Booked once: one ticket issued, the one in the result.
      const issued = logs.filter((line) => line.startsWith('Issued ticket'))
      expect(issued, logs.join('\n')).toHaveLength(1)
      expect(issued[0]).toContain(booking.ticketNumber)
      expect(progress.filter((message) => message === 'Booking confirmed'), progress.join('\n')).toHaveLength(1)
    } finally {
      await client.close()
    }
  })

  test('a rolling graceful restart (SIGTERM, as systemd and Kubernetes stop a service) during a 2025 call: each instance stops at once, and the call books once', async ({ ownCluster: cluster }) => {
    const { client, transport, asked, logs, atFlightQuestion, release } = await connectHeldClient(mcpUrl(cluster))
    try {
      const sessionId = transport.sessionId
      await client.setLoggingLevel('info')
      const result = await reporting(client, async (lost) => {
        const call = client.callTool(BOOK, { timeout: CALL_TIMEOUT_MS })
        call.catch(() => {})
        await Promise.race([atFlightQuestion, call])
        // The client holds its session's GET stream and the call's stream open: a stop must not wait for them.
        for (const index of cluster.instances().keys()) {
          await cluster.stopInstance(index)
          await cluster.start(index)
        }
        release()
        return await Promise.race([call, lost])
      })
      expect(transport.sessionId).toBe(sessionId)
      expect(asked.map(questionKey)).toEqual(['pickFlight', 'pickSeat'])
      expect(result.structuredContent).toMatchObject({ status: 'confirmed', ticketNumber: expect.stringMatching(/^TKT-/) })
      expect(logs.filter((line) => line.startsWith('Issued ticket')), logs.join('\n')).toHaveLength(1)
    } finally {
      await client.close()
    }
  })

  // The chat already keeps its sessions in Redis: the same deploy, as a control for the one above.
  test('a chat booking waiting at its flight question survives the same rolling kill -9 and books once', async ({ ownCluster: cluster }) => {
    const chat = createChatApi({ baseURL: cluster.url })
    const flightQuestion = question(await chat.startBooking('Book a flight from BOS to SEA'), 'pickFlight')
    await rollingKill(cluster)
    const since = cluster.nginx.requests().length
    const { flight, content: flightChoice } = flightAnswer(flightQuestion, 0)
    const seatQuestion = question(await chat.answer({ event: flightQuestion, content: flightChoice }), 'pickSeat')
    expect(seatQuestion.sessionId).toBe(flightQuestion.sessionId)
    const { seat, content: seatChoice } = seatAnswer(seatQuestion)
    const done = await chat.answer({ event: seatQuestion, content: seatChoice })
    expect(confirmedBooking(done)).toMatchObject({ status: 'confirmed', flight: { id: flight.id }, seat })
    await servedByEveryInstance(cluster, { path: '/api/chat', since })
  })
})
