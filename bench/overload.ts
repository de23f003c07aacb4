import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ChatEvent, Message, PluginElicitRequestEvent } from '../lib/protocol'
import { BOOKING_MESSAGE, chooseFlight, chooseSeat } from './booking-answers'
import { processCpuMs } from './process-cpu'
import { startServer, type ServerProcess } from './server-process'
import { serverSetups } from './server-setups'
import { percentile } from './stats'
import { timeTrivialRoute } from './trivial-route'

const FLOOD_SCRIPT = fileURLToPath(new URL('./overload-flood.mjs', import.meta.url))

export interface OverloadCounts {
  /** Bookings (three requests each, every one from its own address) before anything is measured. */
  warmUp: number
  /** Answers timed in each phase: as many bookings are started beforehand, each waiting at its flight question. */
  answers: number
  /** New clients timed in each phase, at least (more if the answers take longer). */
  newClients: number
  /** The flood's loops, each with one junk request in flight at a time. */
  floodLoops: number
  /** The flood's client addresses, one per /24. */
  floodAddresses: number
}

/**
 * The server's limits as it ships (docs/deploying.md, "Limits"): an empty variable counts as unset, which
 * overrides the bench's raised limits (server-process.ts) with the defaults. The server-wide
 * budget is what the flood spends; the per-address ones let each measured client through,
 * since each has its own address.
 */
const DEFAULT_LIMITS_ENV = {
  RATE_LIMIT_BURST: '',
  RATE_LIMIT_PER_SECOND: '',
  RATE_LIMIT_GLOBAL_BURST: '',
  RATE_LIMIT_GLOBAL_PER_SECOND: '',
  MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '',
  TOOL_STARTS_BURST: '',
  TOOL_STARTS_PER_MINUTE: '',
}
/** How long the flood may take to spend the server's budget (its first server-scope 429). */
const SPEND_TIMEOUT_MS = 20_000
/** Flood kept going after the first server-scope 429 before measuring: past the ramp, and its path compiled. */
const FLOOD_SETTLE_MS = 1_500
/** Between one new client's admission and the next one's first try (new clients arrive one at a time, not back to back). */
const NEW_CLIENT_GAP_MS = 100
/** The longest a new client keeps trying (honouring Retry-After) before it counts as never admitted. */
const ADMISSION_DEADLINE_MS = 30_000
/** The longest one phase's measuring may take, whatever is left to measure. */
const PHASE_DEADLINE_MS = 40_000
const REQUEST_TIMEOUT_MS = 30_000

export interface Admitted {
  /** From the first try to the flight question, Retry-After waits included. */
  ms: number
  tries: number
}

export interface FloodCounts {
  done: number
  badRequest: number
  serverRefused: number
  addressRefused: number
  other: number
  errors: number
}

export interface OverloadPhase {
  /** Answer to the flight question sent → the seat question read (the whole response). */
  answers: number[]
  /** GET /api/health, one after each answer: where the server's own queue shows, with no admission in the way. */
  trivial: number[]
  /** Fresh clients' new bookings, each from its own address, until their flight question. */
  admitted: Admitted[]
  /** New clients that were not admitted within ADMISSION_DEADLINE_MS (or failed otherwise). */
  notAdmitted: number
  /** Answers refused or failed (a server-scope refusal of an answer would be a defect). */
  answerFailures: number
  firstFailure?: string
  seconds: number
  /** The server's CPU over the phase, as a share of one core (every thread, schedstat). */
  serverCpuShare: number
  /** The flood over the phase: requests per second and what they got. */
  flood?: { perSecond: number; counts: FloodCounts }
}

export type OverloadMeasures = Awaited<ReturnType<typeof measureOverload>>

/**
 * Issue 28, "Measured": one production server (the default embedded store) with the default
 * limits and TRUST_PROXY=1, so that every client of the bench can have its own address. Without
 * a flood, then with one spending the server-wide budget: the time to answer a question the
 * server waits on (work in progress, never refused for the server's load), and a new client's
 * time to admission (a light client: served from the reserve, or held a slot its Retry-After
 * names). The ratio of the answers' p95 with and without the flood is the target (≤ 3×).
 */
export async function measureOverload({ port, counts }: { port: number; counts: OverloadCounts }) {
  const setup = serverSetups.find((candidate) => candidate.name === 'embedded')!
  const prepared = await setup.prepare()
  try {
    const server = await startServer({ port, env: { ...prepared.env, ...DEFAULT_LIMITS_ENV, TRUST_PROXY: '1' } })
    try {
      const addresses = clientAddresses()
      for (let index = 0; index < counts.warmUp; index++) {
        await bookWhole(new Client(server.base, addresses.next()))
        await timeTrivialRoute(server.base)
      }
      const calm = await measurePhase({ server, addresses, counts })
      // The flood's requests pile up at the server: it is started after the waiting bookings
      // of its phase, so that every measured answer answers a question asked before it.
      const waiting = await startWaiting({ server, addresses, count: counts.answers })
      const flood = startFlood({ port, loops: counts.floodLoops, addresses: counts.floodAddresses })
      try {
        const spentAfterMs = await flood.spent(SPEND_TIMEOUT_MS)
        await sleep(FLOOD_SETTLE_MS)
        const flooded = await measurePhase({ server, addresses, counts, waiting, flood })
        return {
          counts,
          calm,
          flooded,
          spentAfterMs,
          /** answer p95 under the flood ÷ answer p95 without it */
          ratio: percentile(flooded.answers, 95) / percentile(calm.answers, 95),
        }
      } finally {
        await flood.stop()
      }
    } finally {
      await server.stop()
    }
  } finally {
    await prepared.cleanup()
  }
}

/** Client addresses, each in its own /24 (10.1.0.1, 10.1.1.1, …): each measured client is light, and no group is shared. */
function clientAddresses() {
  let index = 0
  return {
    next: () => {
      const address = `10.${1 + (index >> 8)}.${index & 255}.1`
      index++
      return address
    },
  }
}

async function measurePhase({
  server,
  addresses,
  counts,
  waiting,
  flood,
}: {
  server: ServerProcess
  addresses: ReturnType<typeof clientAddresses>
  counts: OverloadCounts
  waiting?: Waiting[]
  flood?: Flood
}): Promise<OverloadPhase> {
  waiting ??= await startWaiting({ server, addresses, count: counts.answers })
  const deadline = performance.now() + PHASE_DEADLINE_MS
  const floodBefore = await flood?.report()
  const cpuBefore = processCpuMs(server.pid)
  const started = performance.now()

  const answers: number[] = []
  const trivial: number[] = []
  let answerFailures = 0
  let firstFailure: string | undefined
  let answering = true
  const answerAll = async () => {
    try {
      for (const booking of waiting) {
        if (performance.now() > deadline) break
        try {
          answers.push(await booking.answerFlight())
        } catch (error) {
          answerFailures++
          firstFailure ??= String(error)
        }
        trivial.push(await timeTrivialRoute(server.base))
      }
    } finally {
      answering = false
    }
  }

  const admitted: Admitted[] = []
  let notAdmitted = 0
  const admitNew = async () => {
    while ((answering || admitted.length + notAdmitted < counts.newClients) && performance.now() < deadline) {
      try {
        admitted.push(await timeAdmission(new Client(server.base, addresses.next())))
      } catch (error) {
        notAdmitted++
        firstFailure ??= String(error)
      }
      await sleep(NEW_CLIENT_GAP_MS)
    }
  }

  await Promise.all([answerAll(), admitNew()])
  const seconds = (performance.now() - started) / 1000
  const serverCpuShare = (processCpuMs(server.pid) - cpuBefore) / 1000 / seconds
  const floodAfter = await flood?.report()
  return {
    answers,
    trivial,
    admitted,
    notAdmitted,
    answerFailures,
    firstFailure,
    seconds,
    serverCpuShare,
    flood:
      floodBefore && floodAfter
        ? {
            perSecond: (floodAfter.counts.done - floodBefore.counts.done) / ((floodAfter.at - floodBefore.at) / 1000),
            counts: Object.fromEntries(
              Object.entries(floodAfter.counts).map(([key, value]) => [key, value - floodBefore.counts[key as keyof FloodCounts]]),
            ) as unknown as FloodCounts,
          }
        : undefined,
  }
}

interface Waiting {
  /** Answers the flight question; resolves with the time until the seat question was read. */
  answerFlight(): Promise<number>
}

/** `count` bookings, each from its own address and browser, started one after another and left waiting at their flight question. */
async function startWaiting({ server, addresses, count }: { server: ServerProcess; addresses: ReturnType<typeof clientAddresses>; count: number }): Promise<Waiting[]> {
  const waiting: Waiting[] = []
  for (let index = 0; index < count; index++) {
    const client = new Client(server.base, addresses.next())
    const flight = elicitOf('start', (await client.postAdmitted({ messages: [{ role: 'user', content: BOOKING_MESSAGE }] })).events)
    waiting.push({
      async answerFlight() {
        const started = performance.now()
        const reply = await client.post(client.answer(flight, chooseFlight(flight)))
        const ms = performance.now() - started
        if (reply.status !== 200) throw new Error(`answer: HTTP ${reply.status} ${reply.text}`)
        elicitOf('answer', reply.events)
        return ms
      },
    })
  }
  return waiting
}

/** A fresh client's new booking, honouring Retry-After, until its flight question: how long, and how many tries. */
async function timeAdmission(client: Client): Promise<Admitted> {
  const started = performance.now()
  const { events, tries } = await client.postAdmitted({ messages: [{ role: 'user', content: BOOKING_MESSAGE }] }, started + ADMISSION_DEADLINE_MS)
  const ms = performance.now() - started
  elicitOf('start', events)
  return { ms, tries }
}

/** A whole booking (for the warm-up). */
async function bookWhole(client: Client): Promise<void> {
  const flight = elicitOf('start', (await client.postAdmitted({ messages: [{ role: 'user', content: BOOKING_MESSAGE }] })).events)
  const seat = elicitOf('answer', (await client.postAdmitted(client.answer(flight, chooseFlight(flight)))).events)
  const done = (await client.postAdmitted(client.answer(seat, chooseSeat(seat)))).events
  if (!done.some((event) => event.type === 'tool_result')) throw new Error(`finish: no ticket in ${JSON.stringify(done)}`)
}

interface Reply {
  status: number
  text: string
  retryAfterSeconds?: number
  events: ChatEvent[]
}

/** One browser (its identity cookie, its conversation) at one client address, as a proxy in front would name it. */
class Client {
  private cookie?: string
  private messages: Message[] = []
  constructor(
    private readonly base: string,
    readonly address: string,
  ) {}

  async post(body: unknown): Promise<Reply> {
    const response = await fetch(`${this.base}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': this.address, ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await response.text()
    this.cookie ??= response.headers.get('set-cookie')?.split(';')[0]
    const retryAfter = response.headers.get('retry-after')
    if (response.status !== 200) return { status: response.status, text, retryAfterSeconds: retryAfter === null ? undefined : Number(retryAfter), events: [] }
    const events = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ChatEvent)
    const state = events.findLast((event) => event.type === 'conversation_state')
    if (state) this.messages = state.messages
    return { status: response.status, text, events }
  }

  /** `post`, sent again after each 429 once its Retry-After has passed, until admitted (or `deadline`). */
  async postAdmitted(body: unknown, deadline = performance.now() + ADMISSION_DEADLINE_MS): Promise<Reply & { tries: number }> {
    for (let tries = 1; ; tries++) {
      const reply = await this.post(body)
      if (reply.status === 200) return { ...reply, tries }
      if (reply.status !== 429 || reply.retryAfterSeconds === undefined) throw new Error(`HTTP ${reply.status} ${reply.text}`)
      const waitMs = reply.retryAfterSeconds * 1000
      if (performance.now() + waitMs > deadline) throw new Error(`not admitted in ${tries} tries: next Retry-After ${reply.retryAfterSeconds} s is past the deadline (${reply.text})`)
      await sleep(waitMs)
    }
  }

  answer(request: PluginElicitRequestEvent, content: unknown) {
    return {
      messages: this.messages,
      pluginElicitResponses: [{ sessionId: request.sessionId, callId: request.callId, elicitId: request.elicitId, result: { action: 'accept', content } }],
    }
  }
}

function elicitOf(kind: string, events: ChatEvent[]): PluginElicitRequestEvent {
  const request = events.find((event): event is PluginElicitRequestEvent => event.type === 'plugin_elicit_request')
  if (!request) throw new Error(`${kind}: no question in ${JSON.stringify(events).slice(0, 500)}`)
  return request
}

interface Flood {
  /** Resolves with the ms from the flood's start to its first server-scope 429; rejects after `timeoutMs` without one. */
  spent(timeoutMs: number): Promise<number>
  report(): Promise<{ at: number; counts: FloodCounts }>
  /** Stops the loops (SIGKILL after 5 s) and resolves once the process has exited. */
  stop(): Promise<void>
}

/** The flood (overload-flood.mjs) in a child process of plain node: see there for what it sends and why apart. */
function startFlood({ port, loops, addresses }: { port: number; loops: number; addresses: number }): Flood {
  const child: ChildProcess = fork(FLOOD_SCRIPT, [], {
    execArgv: [],
    env: { ...process.env, FLOOD_PORT: String(port), FLOOD_LOOPS: String(loops), FLOOD_ADDRESSES: String(addresses) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const startedAt = performance.now()
  const spentAt = new Promise<number>((resolve) => {
    child.on('message', (message: { type?: string }) => {
      if (message?.type === 'spent') resolve(performance.now())
    })
  })
  const nextReport = () =>
    new Promise<{ at: number; counts: FloodCounts }>((resolve, reject) => {
      const onMessage = (message: { type?: string; at: number; counts: FloodCounts }) => {
        if (message?.type !== 'report') return
        child.off('message', onMessage)
        resolve(message)
      }
      child.on('message', onMessage)
      void exited.then(() => reject(new Error('the flood exited before reporting')))
    })
  return {
    async spent(timeoutMs) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the flood (${loops} loops, ${addresses} addresses) did not spend the server's budget in ${timeoutMs / 1000} s: no server-scope 429`)),
          timeoutMs,
        )
      })
      try {
        return (await Promise.race([spentAt, timeout])) - startedAt
      } finally {
        clearTimeout(timer)
      }
    },
    report() {
      const reply = nextReport()
      child.send({ type: 'report' })
      return reply
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.send({ type: 'stop' })
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
        await exited
        clearTimeout(killer)
      }
      process.off('exit', killOnExit)
    },
  }
}
