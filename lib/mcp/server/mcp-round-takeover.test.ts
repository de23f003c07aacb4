import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { until, type Operation } from 'effection'
import { createClient } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SessionStore, StoredSession } from '../../sessions'
import { useRedisSessionStore } from '../../sessions/stores/redis-store'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { connectBookingClient } from './testing/booking-client'
import { endpointPool } from './testing/endpoint-pool'
import { createGatedTool } from './testing/gated-tool'

const SECRET = 't'.repeat(40)
const RESERVE = { name: 'reserve_table', arguments: { guests: 2 } }

let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(() => redis?.stop())

const pools: ReturnType<typeof endpointPool>[] = []
const clients: Array<{ close(): Promise<void> }> = []
const children: ChildProcess[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  for (const pool of pools.splice(0)) await pool.stopAll()
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

let prefixes = 0
const nextPrefix = () => `takeover-${++prefixes}:`

/**
 * An instance in this process on the Redis under `prefix`, serving `reserve_table` with `gate`; `steps` counts the rounds that ran its step to its end.
 * `onRead` sees every record the instance reads from its store, as it reads it.
 */
async function inProcess(prefix: string, roundLeaseMs: number, gate: () => Operation<void> = function* () {}, onRead?: (stored: StoredSession | undefined) => void) {
  const useStore = function* (): Operation<SessionStore> {
    const store = yield* useRedisSessionStore({ url: redis.url, prefix })
    if (!onRead) return store
    return new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'get') return Reflect.get(target, key, receiver) as unknown
        return function* (clientId: string, id: string): Operation<StoredSession | undefined> {
          const stored = yield* target.get(clientId, id)
          onRead(stored)
          return stored
        }
      },
    })
  }
  const pool = endpointPool({ stateSecret: SECRET, roundLeaseMs, useStore })
  pools.push(pool)
  const counted = { steps: 0 }
  const tool = createGatedTool(function* () {
    yield* gate()
    counted.steps++
  })
  const instance = await pool.start({ tools: [tool] })
  return { instance, counted }
}

/** An instance in a process of its own on the Redis under `prefix`, whose step (or call to the app's model) never ends: it is killed there. */
async function inChildProcess(prefix: string, roundLeaseMs: number, stuckIn: 'step' | 'model' = 'step') {
  const script = fileURLToPath(new URL('./testing/endpoint-process.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', 'tsx', script, redis.url, prefix, String(roundLeaseMs), SECRET, stuckIn], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const look = () => {
        const match = pattern.exec(output)
        if (!match) return
        child.stdout.off('data', look)
        resolve(match)
      }
      // After the listener above has added the chunk to `output`.
      child.stdout.on('data', look)
      look()
      void exited.then(() => reject(new Error(`the instance exited before it printed ${pattern}:\n${output}`)))
    })
  const url = new URL((await printed(/^url (\S+)$/m))[1]!)
  return { url, exited, inStep: () => printed(/^in step$/m), inModel: () => printed(/^in model$/m), output: () => output, kill: () => child.kill('SIGKILL') }
}

/**
 * The load balancer of these tests: the client's answers go to `answers`, everything else —
 * `initialize`, the `tools/call` whose response is the call's stream, a resumed stream — to
 * `streams`. So the round an answer completes runs on the first, and the client listens on the second.
 */
function answersTo(answers: URL, streams: URL): typeof fetch {
  return (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown; id?: unknown }) : undefined
    const target = body && body.id !== undefined && body.method === undefined ? answers : streams
    const url = new URL(input instanceof Request ? input.url : String(input))
    return fetch(new URL(url.pathname + url.search, target), init)
  }
}

type Logged = { jsonrpc?: string; id?: unknown; method?: string; result?: { structuredContent?: unknown }; running?: number }

/** The JSON-RPC messages in the call logs under `prefix` (their markers left out). */
async function loggedMessages(prefix: string): Promise<Logged[]> {
  return (await loggedEntries(prefix)).filter((entry) => entry.jsonrpc)
}

/** Every entry of the call logs under `prefix`: the messages, and the markers beside them. */
async function loggedEntries(prefix: string): Promise<Logged[]> {
  const client = createClient({ url: redis.url })
  await client.connect()
  try {
    const logged: Logged[] = []
    for (const key of await client.keys(`${prefix}events:*`)) {
      const entries = (await client.sendCommand(['XRANGE', key, '-', '+'])) as unknown as Array<[string, string[]]>
      for (const [, fields] of entries) logged.push(JSON.parse(String(fields[1])) as Logged)
    }
    return logged
  } finally {
    client.destroy()
  }
}

const at8 = () => ({ action: 'accept' as const, content: { time: '20:00' } })

describe('a 2025 call whose round is cut by the death of its instance', () => {
  it('is taken over by the instance holding the call’s stream once the round’s lease has passed, and completes once', async () => {
    const prefix = nextPrefix()
    const leaseMs = 1_000
    const dying = await inChildProcess(prefix, leaseMs)
    const { instance: survivor, counted } = await inProcess(prefix, leaseMs)
    const { client, asked } = await connectBookingClient({ url: survivor.url, era: '2025', answer: at8, fetch: answersTo(dying.url, survivor.url) })
    clients.push(client)

    const calling = client.callTool(RESERVE)
    // The answer reached the other process, which runs the round: it is killed there, mid-step.
    await dying.inStep()
    dying.kill()
    expect(await dying.exited).toBe('SIGKILL')

    const result = await calling
    expect(asked).toHaveLength(1)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', code: expect.stringMatching(/^TBL-/) })
    // Taken over only once the dead runner's lease had passed.
    const logged = await loggedEntries(prefix)
    const lease = logged.find((entry) => typeof entry.running === 'number')
    expect(lease).toBeDefined()
    expect(Date.now()).toBeGreaterThanOrEqual(lease!.running!)
    // The step ran to its end once, here; the call's log holds one result.
    expect(counted.steps).toBe(1)
    expect(dying.output().match(/^in step$/gm)).toHaveLength(1)
    const responses = logged.filter((entry) => entry.jsonrpc && entry.method === undefined)
    expect(responses).toHaveLength(1)
    expect(responses[0]!.result!.structuredContent).toEqual(result.structuredContent)
  })

  it('is taken over by the instance the client resumes its stream on, when the dead one held the stream too (a rolling kill -9)', async () => {
    const prefix = nextPrefix()
    const leaseMs = 1_000
    const dying = await inChildProcess(prefix, leaseMs)
    const { instance: survivor, counted } = await inProcess(prefix, leaseMs)
    // Every request to the first instance while it lives, then to the other: a load balancer taking a dead instance out.
    let target = dying.url
    const balancer: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      return fetch(new URL(url.pathname + url.search, target), init)
    }
    const { client } = await connectBookingClient({ url: dying.url, era: '2025', answer: at8, fetch: balancer })
    clients.push(client)

    const calling = client.callTool(RESERVE)
    await dying.inStep()
    target = survivor.url
    dying.kill()
    expect(await dying.exited).toBe('SIGKILL')

    const result = await calling
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', code: expect.stringMatching(/^TBL-/) })
    expect(counted.steps).toBe(1)
    expect((await loggedMessages(prefix)).filter((message) => message.method === undefined)).toHaveLength(1)
  })

  it('is taken over when the instance died while the app’s model was answering the round, and completes once', async () => {
    const prefix = nextPrefix()
    const leaseMs = 1_000
    const dying = await inChildProcess(prefix, leaseMs, 'model')
    const { instance: survivor, counted } = await inProcess(prefix, leaseMs)
    const { client } = await connectBookingClient({ url: survivor.url, era: '2025', answer: at8, fetch: answersTo(dying.url, survivor.url) })
    clients.push(client)

    const calling = client.callTool(RESERVE)
    await dying.inModel()
    dying.kill()
    expect(await dying.exited).toBe('SIGKILL')

    const result = await calling
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', note: expect.any(String), code: expect.stringMatching(/^TBL-/) })
    expect((result.structuredContent as { note: string }).note).not.toBe('')
    expect(counted.steps).toBe(1)
    expect(dying.output().match(/^in model$/gm)).toHaveLength(1)
    expect((await loggedMessages(prefix)).filter((message) => message.method === undefined)).toHaveLength(1)
  })

  it('is not taken over while its round is merely slow: the runner renews its lease, and its own result is the one', { timeout: 60_000 }, async () => {
    const prefix = nextPrefix()
    // The default lease: only a runner stalled for two thirds of it (over 6 s) fails to renew it in time.
    const leaseMs = 10_000
    // The round's step lasts until the listener, past the round's first lease, has read the call's
    // record and found the lease renewed: the moment it would have taken a dead runner's round over.
    let firstLeaseEnd: number | undefined
    let sawRenewed!: () => void
    const renewedSeen = new Promise<void>((resolve) => (sawRenewed = resolve))
    const runningUntil = (stored: StoredSession | undefined) =>
      stored?.record.status === 'running' ? (stored.record.params as { runningUntil?: number }).runningUntil : undefined
    const { instance: runner, counted: ran } = await inProcess(prefix, leaseMs, function* () {
      // The round's lease as it started: the marker in the call's log, written before the round runs.
      firstLeaseEnd = (yield* until(loggedEntries(prefix))).find((entry) => typeof entry.running === 'number')?.running
      yield* until(renewedSeen)
    })
    const { instance: listener, counted: tookOver } = await inProcess(prefix, leaseMs, undefined, (stored) => {
      const until = runningUntil(stored)
      if (firstLeaseEnd !== undefined && until !== undefined && Date.now() >= firstLeaseEnd && until > firstLeaseEnd) sawRenewed()
    })
    const { client } = await connectBookingClient({ url: listener.url, era: '2025', answer: at8, fetch: answersTo(runner.url, listener.url) })
    clients.push(client)

    const result = await client.callTool(RESERVE)
    expect(firstLeaseEnd).toBeDefined()
    expect(Date.now()).toBeGreaterThanOrEqual(firstLeaseEnd!)
    expect(result.structuredContent).toMatchObject({ status: 'reserved', time: '20:00', code: expect.stringMatching(/^TBL-/) })
    expect(ran.steps).toBe(1)
    expect(tookOver.steps).toBe(0)
    expect((await loggedMessages(prefix)).filter((message) => message.method === undefined)).toHaveLength(1)
  })
})
