// A 2025-11-25 MCP round across instances (issue 29): the time from a client's answer to the
// next question (or the result) when the answer reaches another instance than the one holding
// the call's stream — the call continues from Redis, and what it sends next is relayed to the
// stream's instance — against the same round with every request on one instance. Two production
// servers on one Redis; the official v2 client, its requests sent to one or the other by its
// own `fetch` (no proxy in between, so the figure is the servers' alone).
import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client'
import { randomBytes } from 'node:crypto'
import { startRedisServer } from '../lib/sessions/testing/redis-server'
import { choicesOf, type FormSchema } from '../lib/protocol/question-form'
import { startServer, type ServerProcess } from './server-process'
import { percentile } from './stats'
import { makeTempDir } from './temp-dir'

/** The most an answer's round across instances may take, as a multiple of the same round on one instance (p50s). */
export const MCP_INSTANCES_TARGET = 1.5
/** A booking that takes longer than this has failed (an answer that reached no call never comes back). */
const BOOKING_TIMEOUT_MS = 15_000

const BOOK = { name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } }

export interface McpInstancesMeasures {
  /** Every answer's round with every request on one instance (two per booking). */
  single: number[]
  /** Every answer's round with the answers sent to the other instance. */
  across: number[]
  /** across p50 / single p50, when the bookings across instances completed. */
  ratio?: number
  /** Why the bookings across instances did not complete (the first failure; none was tried after it). */
  failure?: string
}

/**
 * The client's requests to `home`, except its answers to the server's requests (JSON-RPC
 * responses: a body without `method`), which go to `answersTo`.
 */
function routeAnswers({ home, answersTo }: { home: string; answersTo: string }): FetchLike {
  return (url, init) => {
    const target = new URL(url)
    let isAnswer = false
    if (typeof init?.body === 'string') {
      try {
        isAnswer = !('method' in (JSON.parse(init.body) as object))
      } catch {
        isAnswer = false
      }
    }
    target.host = new URL(isAnswer ? answersTo : home).host
    return fetch(target, init)
  }
}

/** One 2025 booking on a fresh session: each answer's round trip, in ms. Rejects, saying why, when it cannot complete. */
async function bookOnce({ home, answersTo }: { home: string; answersTo: string }): Promise<number[]> {
  const client = new Client({ name: 'bench-instances', version: '1' }, { capabilities: { elicitation: { form: {} } } })
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', home), { fetch: routeAnswers({ home, answersTo }) })
  const reported: string[] = []
  let lose: (error: Error) => void = () => {}
  const lost = new Promise<never>((_, reject) => (lose = reject))
  lost.catch(() => {})
  client.onerror = (error) => {
    reported.push(error.message)
    // The answer did not reach a server that took it: the call waits for it for ever.
    if (/Failed to send (an error )?response/.test(error.message)) lose(error)
  }
  const times: number[] = []
  let answeredAt: number | undefined
  const lap = () => {
    if (answeredAt !== undefined) times.push(performance.now() - answeredAt)
  }
  client.setRequestHandler('elicitation/create', async (request) => {
    lap()
    answeredAt = performance.now()
    return firstChoices((request.params as { requestedSchema: FormSchema }).requestedSchema) as never
  })
  try {
    await client.connect(transport)
    const result = await Promise.race([client.callTool(BOOK, { timeout: BOOKING_TIMEOUT_MS }), lost])
    lap()
    if ((result.structuredContent as { status?: string })?.status !== 'confirmed') throw new Error(`not confirmed: ${JSON.stringify(result)}`)
    return times
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error([message, ...reported.filter((line) => !message.includes(line))].join('; '))
  } finally {
    await transport.terminateSession().catch(() => {})
    await client.close()
  }
}

/** A person's answer to a form: the first offer of each pick list. */
function firstChoices(schema: FormSchema): { action: 'accept'; content: Record<string, string> } {
  return { action: 'accept', content: Object.fromEntries(Object.entries(choicesOf(schema)).map(([name, choices]) => [name, choices[0]!.value])) }
}

/**
 * `bookings` 2025 bookings with every request on one instance and as many with the answers on
 * the other, alternating (so that both see the same machine), after a warm-up of each. When a
 * booking across instances fails, none is tried after it and the failure is reported.
 */
export async function measureMcpInstances({ ports, bookings }: { ports: [number, number]; bookings: number }): Promise<McpInstancesMeasures> {
  const redis = await startRedisServer()
  const dirs = [makeTempDir('data'), makeTempDir('data')]
  const env = { REDIS_URL: redis.url, SESSION_SECRET: randomBytes(32).toString('base64url'), SESSION_STORE: '', PLUGIN_SESSION_HOT_MS: '' }
  const servers: ServerProcess[] = []
  try {
    for (const [index, port] of ports.entries()) servers.push(await startServer({ port, env: { ...env, DATA_DIR: dirs[index]!.path } }))
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const single: number[] = []
    const across: number[] = []
    let failure: string | undefined
    const acrossOnce = async (into?: number[]) => {
      if (failure !== undefined) return
      try {
        const times = await bookOnce({ home: a.base, answersTo: b.base })
        into?.push(...times)
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error)
      }
    }
    for (let index = 0; index < 10; index++) {
      await bookOnce({ home: a.base, answersTo: a.base })
      await acrossOnce()
    }
    for (let index = 0; index < bookings; index++) {
      single.push(...(await bookOnce({ home: a.base, answersTo: a.base })))
      await acrossOnce(across)
    }
    const ratio = failure === undefined && across.length > 0 ? percentile(across, 50) / percentile(single, 50) : undefined
    return { single, across, ...(ratio !== undefined ? { ratio } : {}), ...(failure !== undefined ? { failure } : {}) }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await redis.stop()
    for (const dir of dirs) dir.remove()
  }
}
