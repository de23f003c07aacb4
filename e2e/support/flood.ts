import http from 'node:http'

/** A request to `POST /api/chat` as sent, byte for byte: no header added but `Content-Length`. */
export interface RawRequest {
  body: string
  headers?: Record<string, string>
}

/** What the server answered: status, headers, the whole body as text. */
export interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
}

/**
 * Posts to `/api/chat` on keep-alive connections (at most `connections` open), with node:http
 * rather than fetch: fetch costs the test process about twice the CPU per request, and on a
 * machine of 2 cores the sender, not the server, would decide how fast a flood goes.
 */
export function createRawPoster(baseURL: string, { connections }: { connections: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const url = new URL('/api/chat', baseURL)
  function post({ body, headers = {} }: RawRequest, { timeoutMs = 60_000 } = {}): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      let answered = false
      const request = http.request(url, { method: 'POST', agent, timeout: timeoutMs, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
        answered = true
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }))
        response.on('error', reject)
      })
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
      // A server may answer (a 413) before it has read the whole body and close the connection:
      // the write then fails, but the answer counts.
      request.on('error', (error) => {
        if (!answered) reject(error)
      })
      request.end(body)
    })
  }
  return { post, close: () => agent.destroy() }
}

/** How an answer is counted: its status, a 429 with its `scope` (`429 server`, `429 address`), or `no answer`. */
export function outcomeOf(answer: RawAnswer | Error): string {
  if (answer instanceof Error) return 'no answer'
  if (answer.status !== 429) return String(answer.status)
  try {
    const scope = (JSON.parse(answer.text) as { error?: { scope?: unknown } }).error?.scope
    return typeof scope === 'string' ? `429 ${scope}` : '429'
  } catch {
    return '429'
  }
}

export interface FloodOptions {
  baseURL: string
  /** The nth request to send; `undefined` when there is no more. */
  next: (index: number) => RawRequest | undefined
  /** Requests in flight at once (each connection sends its next as soon as it is answered). */
  connections: number
  /** The flood stops by itself this long after it started, whatever happens. */
  maxMs: number
  /** Each answer, to check it; what it returns (a problem) is kept in `problems`. */
  check?: (answer: RawAnswer | Error, index: number) => string | undefined
}

export interface FloodSummary {
  sent: number
  seconds: number
  /** Answers by outcome (`outcomeOf`), e.g. `{ "400": 3120, "429 server": 4410 }`. */
  statuses: Record<string, number>
  problems: string[]
  /** Why it ended: `stopped`, `time` (maxMs) or `requests` (next gave none). */
  ended: 'stopped' | 'time' | 'requests'
}

export interface Flood {
  /** Server-scope 429s answered so far. */
  readonly serverRefusals: number
  readonly statuses: Readonly<Record<string, number>>
  /**
   * Resolves to true once `count` more server-scope 429s have been answered after this call — the
   * server-wide budget is spent —, or to false when the flood ends first.
   */
  refusedByServer(count?: number): Promise<boolean>
  /** Stops sending; resolves once every request in flight has been answered. */
  stop(): Promise<FloodSummary>
  /** Resolves when the flood has ended, by itself or stopped. */
  readonly done: Promise<FloodSummary>
}

/**
 * Sends requests as fast as the server answers them, `connections` at a time, until `next`
 * gives none, `maxMs` has passed or `stop` is called, counting every answer by outcome. It
 * never throws: an answer that is not one is counted as `no answer` (and is a problem).
 */
export function startFlood({ baseURL, next, connections, maxMs, check }: FloodOptions): Flood {
  const poster = createRawPoster(baseURL, { connections })
  const statuses: Record<string, number> = {}
  const problems: string[] = []
  const waiters = new Set<{ at: number; resolve: (reached: boolean) => void }>()
  const began = performance.now()
  const deadline = began + maxMs
  let serverRefusals = 0
  let sent = 0
  let stopped = false
  let exhausted = false
  let finished = false

  const record = (answer: RawAnswer | Error, index: number) => {
    const outcome = outcomeOf(answer)
    statuses[outcome] = (statuses[outcome] ?? 0) + 1
    if (outcome === '429 server') {
      serverRefusals++
      for (const waiter of waiters) if (serverRefusals >= waiter.at) waiters.delete(waiter), waiter.resolve(true)
    }
    const problem = check ? check(answer, index) : answer instanceof Error ? `no answer: ${answer.message}` : undefined
    if (problem) problems.push(`#${index}: ${problem}`)
  }

  const done = Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stopped && performance.now() < deadline) {
        const index = sent
        const request = next(index)
        if (!request) {
          exhausted = true
          return
        }
        sent++
        record(await poster.post(request).catch((error: Error) => error), index)
      }
    }),
  ).then((): FloodSummary => {
    finished = true
    poster.close()
    for (const waiter of waiters) waiter.resolve(false)
    waiters.clear()
    return { sent, seconds: (performance.now() - began) / 1000, statuses, problems, ended: stopped ? 'stopped' : exhausted ? 'requests' : 'time' }
  })

  return {
    get serverRefusals() {
      return serverRefusals
    },
    statuses,
    refusedByServer(count = 1) {
      if (finished) return Promise.resolve(false)
      return new Promise<boolean>((resolve) => waiters.add({ at: serverRefusals + count, resolve }))
    },
    stop() {
      stopped = true
      return done
    },
    done,
  }
}

/**
 * The server-wide budget the overload tests start their servers with (RATE_LIMIT_GLOBAL_*), in
 * place of the default 400 at once and 200 a second: whether a flood outpaces 200 a second
 * depends on the machine (a busy one of 2 cores here sent about 206), and a test must not. Any
 * machine that runs the suite outpaces 20 a second, so the budget is spent on purpose, and the
 * property under test (what is refused first) is the same at any size.
 */
export const SPENDABLE_BUDGET = { RATE_LIMIT_GLOBAL_BURST: '100', RATE_LIMIT_GLOBAL_PER_SECOND: '20' }

/** How many addresses a test flood comes from. */
export const FLOOD_ADDRESSES = 300

/**
 * The nth address of a test flood: 300 addresses in three /24s (10.200.0–2.x), as a few
 * subnets of a provider's would be. Each /24 is soon over its fair share, so its requests are
 * refused once the server is down to its reserve. (A flood whose every request comes from a /24
 * of its own cannot be told from that many new clients: docs/deploying.md, "Under load".)
 */
export function floodAddress(index: number): string {
  const host = index % FLOOD_ADDRESSES
  return `10.200.${Math.floor(host / 100)}.${(host % 100) + 1}`
}
