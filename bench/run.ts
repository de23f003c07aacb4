// npm run bench: booking latency over HTTP against the production build (offline model, no
// artificial delay) with each session store, and with cold sessions that must be replayed;
// the server's CPU per booking; many bookings at once; then, in-process with the same engine,
// the heap and idle CPU of waiting sessions (kept hot, and dropped from memory by the
// hundred thousand) and the heap left after many bookings. Figures, not pass/fail tests.
//
// Smaller counts for a quick run: BENCH_WARM_UP (bookings before any server run measures),
// BENCH_SEQUENTIAL, BENCH_CONCURRENT, BENCH_CPU_BOOKINGS,
// BENCH_CPU_TRIVIAL, BENCH_WAITING, BENCH_DEHYDRATED, BENCH_BOOKINGS (the last three: 0 skips it);
// BENCH_LIGHTHOUSE_RUNS (0 skips it): Lighthouse runs of the first load, chat page and bare page;
// BENCH_SERVERS=memory,embedded,redis,cold picks server runs; BENCH_PORT is the first port;
// BENCH_MCP_BOOKINGS (0 skips it): bookings over /api/mcp on the embedded store;
// BENCH_HTTP_LEAK_BOOKINGS (0 skips it): bookings over HTTP with the server's heap read through
// its inspector, on BENCH_HTTP_LEAK_STORE (embedded by default; memory to see the records kept);
// BENCH_OVERLOAD_ANSWERS (0 skips it): answers timed with and without a flood spending the
// server-wide budget (bench/overload.ts), with BENCH_OVERLOAD_NEW_CLIENTS, BENCH_OVERLOAD_WARM_UP,
// BENCH_OVERLOAD_FLOOD_LOOPS and BENCH_OVERLOAD_FLOOD_ADDRESSES;
// BENCH_MCP_INSTANCE_BOOKINGS (0 skips it): 2025 MCP bookings with every request on one instance,
// and as many with the answers sent to another instance on the same Redis (bench/mcp-instances.ts);
// the chats kept on the server (issue 25): BENCH_CHATS (0 skips it: the list of that many chats,
// in-process, embedded store and Redis, bench/conversations.ts), BENCH_HISTORY_CPU_BOOKINGS (0
// skips it: a booking's server CPU without and with its chat kept, that many of each, embedded and
// memory stores, bench/history-cpu.ts; BENCH_HISTORY_CONCURRENT, 200, 0 skips it: that many bookings
// at once without chats and in new kept chats, embedded store), BENCH_OPEN_CHAT_RUNS (0 skips it: a chat of 200 messages
// opened in Chromium, bench/open-chat.ts); BENCH_APP_QUESTION_RUNS (0 skips it): bookings through MCP
// Inspector's web client in Chromium, each question timed from the click that asks it to our
// component painted in Inspector's app frame (bench/app-question.ts; the first run downloads
// Inspector and Node 22 from the npm registry; BENCH_APP_QUESTION_APPS=<dir> serves the question
// apps built into <dir> instead, for a before and after); BENCH_MCP_OAUTH_BOOKINGS (0 skips it): 2026 MCP
// bookings with the static MCP_AUTH_TOKEN and as many with an OAuth JWT (MCP_AUTH_ISSUER, a real
// oidc-provider), the server's CPU per booking with each (bench/mcp-bearer-cpu.ts);
// BENCH_SIGN_IN_BOOKINGS (0 skips it): bookings by a guest and as many by a signed-in person on
// one server with sign-in against a real oidc-provider, the server's CPU per booking with each
// (bench/sign-in-cpu.ts).
//
// One section alone: BENCH_ONLY=<section> gives every other section's count a default of 0, e.g.
// `BENCH_ONLY=overload npm run bench`. Sections: servers (BENCH_SERVERS and the HTTP counts), mcp,
// mcp-oauth, sign-in, mcp-instances, overload, first-load, conversations, app-question, http-heap, waiting, dehydrated, bookings, traces.
// BENCH_TRACES_BOOKINGS (0 skips it): a booking's server CPU with the telemetry bypassed
// (BENCH_WITHOUT_TELEMETRY=1), without an OTLP endpoint, and exporting every span to a live
// receiver, side by side in one build (bench/traces-cpu.ts).
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { resolve } from 'node:path'
import { startBareHttpServer, type BareHttpServer } from './bare-http'
import { formatCpu } from './cpu-units'
import { useEmbeddedConversationStore, useRedisConversationStore } from '../lib/conversations'
import { startRedisServer } from '../lib/sessions/testing/redis-server'
import { describeConversationMeasures, measureConversations } from './conversations'
import { measureDehydratedSessions } from './dehydrated-sessions'
import { concurrentShare, describeHistoryConcurrent, describeHistoryCpu, HISTORY_CONCURRENT_SHARE_TARGET, HISTORY_CPU_GROWTH_TARGET, measureHistoryConcurrent, measureHistoryCpu } from './history-cpu'
import { measureOpenChat, OPEN_CHAT_RENDER_MS_TARGET } from './open-chat'
import { APP_QUESTION_MS_TARGET, APP_QUESTION_OWN_MS_TARGET, describePhases, measureAppQuestion } from './app-question'
import { describePageLoad, FIRST_LOAD_LCP_RATIO_TARGET, FIRST_LOAD_SCRIPT_KIB_TARGET, measureFirstLoad } from './first-load'
import { measureHttpHeap } from './http-heap'
import { measureRetainedHeap, measureWaitingSessions } from './in-process'
import { measureMcp } from './mcp-booking'
import { measureBearerCpu } from './mcp-bearer-cpu'
import { measureSignInCpu, SIGN_IN_CPU_TARGET } from './sign-in-cpu'
import { MCP_INSTANCES_TARGET, measureMcpInstances } from './mcp-instances'
import { measureOverHttp, type HttpCounts, type HttpMeasures } from './over-http'
import { measureOverload, type Admitted, type OverloadCounts, type OverloadMeasures } from './overload'
import { ensureBuild, startServer } from './server-process'
import { serverSetups, type ServerSetup, type SetupName } from './server-setups'
import { measureResumeStoreTime, type ResumeStoreTime } from './store-time'
import { percentile, summary } from './stats'
import { makeTempDir } from './temp-dir'
import { timeTrivialRoute } from './trivial-route'
import { describeTracesCpu, measureTracesCpu, NO_EXPORTER_GROWTH_TARGET, TRACES_CPU_GROWTH_TARGET } from './traces-cpu'

type Section = 'servers' | 'mcp' | 'mcp-oauth' | 'sign-in' | 'mcp-instances' | 'overload' | 'first-load' | 'conversations' | 'app-question' | 'http-heap' | 'waiting' | 'dehydrated' | 'bookings' | 'traces'
/** `BENCH_ONLY=<section>`: that section alone (its counts at their defaults unless set), every other one's counts 0 unless set. */
const ONLY = (process.env.BENCH_ONLY?.trim() || undefined) as Section | undefined
/** The variable `name` when set, else `fallback`, or 0 when BENCH_ONLY names another section. */
const count = (name: string, fallback: number, section: Section) => Number(process.env[name] ?? (ONLY === undefined || ONLY === section ? fallback : 0))
const PORT = Number(process.env.BENCH_PORT ?? 3290)
const HTTP: HttpCounts = {
  warmUp: count('BENCH_WARM_UP', 1_500, 'servers'),
  sequential: count('BENCH_SEQUENTIAL', 300, 'servers'),
  concurrent: count('BENCH_CONCURRENT', 200, 'servers'),
  cpuBookings: count('BENCH_CPU_BOOKINGS', 300, 'servers'),
  cpuTrivial: count('BENCH_CPU_TRIVIAL', 2_000, 'servers'),
}
const WAITING = count('BENCH_WAITING', 1_000, 'waiting')
const DEHYDRATED = count('BENCH_DEHYDRATED', 100_000, 'dehydrated')
const LEAK_BOOKINGS = count('BENCH_BOOKINGS', 10_000, 'bookings')
const MCP_BOOKINGS = count('BENCH_MCP_BOOKINGS', 100, 'mcp')
const MCP_OAUTH_BOOKINGS = count('BENCH_MCP_OAUTH_BOOKINGS', 200, 'mcp-oauth')
const SIGN_IN_BOOKINGS = count('BENCH_SIGN_IN_BOOKINGS', 200, 'sign-in')
const MCP_INSTANCE_BOOKINGS = count('BENCH_MCP_INSTANCE_BOOKINGS', 100, 'mcp-instances')
const HTTP_LEAK_BOOKINGS = count('BENCH_HTTP_LEAK_BOOKINGS', 10_000, 'http-heap')
const OVERLOAD: OverloadCounts = {
  answers: count('BENCH_OVERLOAD_ANSWERS', 150, 'overload'),
  newClients: count('BENCH_OVERLOAD_NEW_CLIENTS', 30, 'overload'),
  warmUp: count('BENCH_OVERLOAD_WARM_UP', 200, 'overload'),
  floodLoops: count('BENCH_OVERLOAD_FLOOD_LOOPS', 8, 'overload'),
  floodAddresses: count('BENCH_OVERLOAD_FLOOD_ADDRESSES', 300, 'overload'),
}
const CHATS = count('BENCH_CHATS', 1_000, 'conversations')
const HISTORY_CPU_BOOKINGS = count('BENCH_HISTORY_CPU_BOOKINGS', 600, 'conversations')
const HISTORY_CONCURRENT = count('BENCH_HISTORY_CONCURRENT', 200, 'conversations')
const OPEN_CHAT_RUNS = count('BENCH_OPEN_CHAT_RUNS', 7, 'conversations')
const APP_QUESTION_RUNS = count('BENCH_APP_QUESTION_RUNS', 10, 'app-question')
const TRACES_BOOKINGS = count('BENCH_TRACES_BOOKINGS', 600, 'traces')
/** Answer p95 under a flood spending the server's budget, as a multiple of it without (issue 28). */
const OVERLOAD_TARGET = 3
/**
 * The embedded store by default: the production default, and it keeps ended records on disk,
 * so what the heap keeps is the engine's and Next's alone; the memory store keeps each ended
 * record in the heap for an hour by design, which grows linearly without being a leak.
 */
const HTTP_LEAK_STORE = (process.env.BENCH_HTTP_LEAK_STORE ?? 'embedded') as SetupName
// Ports after the server runs' (PORT + index) and the MCP run's (PORT + serverSetups.length).
const BARE_PORT = PORT + serverSetups.length + 1
const HTTP_LEAK_PORT = BARE_PORT + 1
const INSPECTOR_PORT = BARE_PORT + 2
const OVERLOAD_PORT = BARE_PORT + 3
const FIRST_LOAD_PORT = BARE_PORT + 4
const MCP_INSTANCES_PORTS: [number, number] = [BARE_PORT + 5, BARE_PORT + 6]
const CONVERSATIONS_PORT = BARE_PORT + 7
const MCP_OAUTH_PORT = BARE_PORT + 8
const SIGN_IN_PORT = BARE_PORT + 9
const LIGHTHOUSE_RUNS = count('BENCH_LIGHTHOUSE_RUNS', 5, 'first-load')
/** e.g. `BENCH_SERVERS=memory,cold`: only those server runs (all four by default, none when BENCH_ONLY names another section; set but empty: none). */
const SERVERS =
  process.env.BENCH_SERVERS?.split(',').map((name) => name.trim()).filter(Boolean) ??
  (ONLY === undefined || ONLY === 'servers' ? serverSetups.map((setup) => setup.name) : [])
/** `BENCH_SERVER_PROFILE=1`: each server runs with --cpu-prof, its profile in bench/results/profiles/<store>/. */
const PROFILE = process.env.BENCH_SERVER_PROFILE === '1'
/** Requests to the bare node:http server before anything is measured against it. */
const BARE_WARM_UP = 5_000
/** Idle CPU counts as indistinguishable from none within 1% of one core. */
const IDLE_TOLERANCE = 0.01

const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES TARGET')
const ms = (value: number) => `${value.toFixed(2)} ms`
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`

interface ServerRun extends HttpMeasures {
  label: string
  target: number
  /** resume p50 / trivial route p50 */
  ratio: number
}

/** One server process with `setup`, measured over HTTP; tried again if it fails (a build being rewritten under it). */
async function measureSetup({ setup, port, bare }: { setup: ServerSetup; port: number; bare: BareHttpServer }): Promise<ServerRun> {
  for (let attempt = 1; ; attempt++) {
    const prepared = await setup.prepare()
    try {
      const nodeArgs = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve('bench/results/profiles', setup.name)] : []
      const server = await startServer({ port, env: prepared.env, nodeArgs })
      try {
        const http = await measureOverHttp({ server, bare, counts: HTTP })
        return { label: setup.label, target: setup.target, ratio: percentile(http.resume, 50) / percentile(http.floor, 50), ...http }
      } finally {
        await server.stop()
      }
    } catch (error) {
      if (attempt === 3) throw error
      console.log(`  (${setup.name}: ${error instanceof Error ? error.message : String(error)}; trying again in 20 s)`)
      await new Promise((resolve) => setTimeout(resolve, 20_000))
    } finally {
      await prepared.cleanup()
    }
  }
}

function printServerRun(run: ServerRun) {
  console.log(`\n${run.label}`)
  console.log(`  bare node:http request (own process)  ${summary(run.bare)}`)
  console.log(`  trivial route (GET /api/health)       ${summary(run.floor)}`)
  console.log(`  start  (message in, FlightList out)   ${summary(run.start)}`)
  console.log(`  resume (flight in, SeatPicker out)    ${summary(run.resume)}`)
  console.log(`  finish (seat in, ticket + summary)    ${summary(run.finish)}`)
  console.log(`  resume p50 / trivial p50 = ${run.ratio.toFixed(2)}x (target <= ${run.target}x): ${verdict(run.ratio <= run.target)}`)
  const { booking, trivial, bare, units, wholeRun } = run.cpu
  console.log(`  CPU per request, every thread (schedstat), as multiples of a bare node:http request and of Next's trivial route:`)
  console.log(`    bare node:http request               ${ms(bare.perCallMs)} (${bare.calls} in a row, its own process)`)
  console.log(`    trivial route (GET /api/health)      ${formatCpu(units.trivial)} (${trivial.calls} in a row)`)
  console.log(`    start                                ${formatCpu(units.start)}`)
  console.log(`    resume                               ${formatCpu(units.resume)}`)
  console.log(`    finish                               ${formatCpu(units.finish)}`)
  console.log(`    between requests (after last bytes)  ${formatCpu(units.between)}`)
  console.log(`    whole booking                        ${formatCpu(units.booking)} (${booking.calls} in a row)`)
  console.log(
    `    of a booking, Next's floor (3 trivial routes) ${units.nextFloor.bare.toFixed(1)}x bare (${percent(units.nextFloor.ms, units.booking.ms)}), ours ${units.ours.bare.toFixed(1)}x bare, ${ms(units.ours.ms)} (${percent(units.ours.ms, units.booking.ms)})`,
  )
  console.log(
    `    server CPU over this whole run: ${ms(wholeRun.schedstatMs)} by schedstat, ${ms(wholeRun.statMs)} by /proc/<pid>/stat (${percent(wholeRun.schedstatMs - wholeRun.statMs, wholeRun.statMs)} apart)`,
  )
  const { concurrent } = run
  console.log(
    `  ${concurrent.bookings} bookings at once: ${concurrent.failures} failed, ${concurrent.seconds.toFixed(2)} s, ${concurrent.flowsPerSecond.toFixed(1)} flows/s: ${verdict(concurrent.failures === 0)}`,
  )
  if (concurrent.firstFailure) console.log(`    first failure: ${concurrent.firstFailure}`)
}

function printSummary(runs: Partial<Record<SetupName, ServerRun>>) {
  console.log('\nSummary: resume p50 against GET /api/health p50 on the same server process; server CPU from /proc (schedstat)')
  console.log('  server     resume p50   trivial p50   ratio   target   CPU/booking   x bare   CPU/health   x bare   CPU/bare   flows/s')
  for (const [name, run] of Object.entries(runs)) {
    const row = [
      name.padEnd(8),
      ms(percentile(run.resume, 50)).padStart(12),
      ms(percentile(run.floor, 50)).padStart(13),
      `${run.ratio.toFixed(2)}x`.padStart(7),
      `<= ${run.target}x`.padStart(8),
      ms(run.cpu.booking.perCallMs).padStart(13),
      `${run.cpu.units.booking.bare.toFixed(1)}x`.padStart(8),
      ms(run.cpu.trivial.perCallMs).padStart(12),
      `${run.cpu.units.trivial.bare.toFixed(1)}x`.padStart(8),
      ms(run.cpu.bare.perCallMs).padStart(10),
      run.concurrent.flowsPerSecond.toFixed(1).padStart(9),
    ]
    console.log(`  ${row.join(' ')}${run.ratio <= run.target ? '' : '  MISSES TARGET'}`)
  }
}

function printStoreTime(times: Partial<Record<SetupName, ResumeStoreTime>>) {
  console.log(`\nWhere a resume's time goes, in-process (no HTTP, no Next), ${HTTP.sequential} resumes each: time waiting on the store`)
  for (const [name, time] of Object.entries(times)) {
    const operations = Object.entries(time.operations)
      .map(([operation, { perResume, p50Ms }]) => `${perResume.toFixed(1)} ${operation} (p50 ${ms(p50Ms)})`)
      .join(', ')
    console.log(`  ${name.padEnd(8)} resume p50 ${ms(time.resumeP50Ms)}, of which waiting on the store p50 ${ms(time.storeP50Ms)}: ${operations}`)
  }
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')

const idleVerdict = (waitingCpuMs: number, baselineCpuMs: number, idleMs: number) => {
  const ok = waitingCpuMs - baselineCpuMs <= idleMs * IDLE_TOLERANCE
  return `${ok ? 'indistinguishable' : 'DISTINGUISHABLE'} (target: indistinguishable, within ${IDLE_TOLERANCE * 100}% of one core)`
}

// Interrupted: exit, so that the servers (and redis-server) this bench started are killed too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\nStopped by ${signal}: no figures written.`)
    process.exit(130)
  })
}

ensureBuild()
const loadBefore = loadavg()
console.log(`Load average ${load()} on ${cpus().length} CPUs (other work on this machine makes every figure noisier).\n`)
const runs: Partial<Record<SetupName, ServerRun>> = {}
if (SERVERS.length > 0) {
  console.log('Server time per request over loopback (production build, offline model, no delay), one server process per store:')
  // One bare node:http server for the whole bench, measured again beside each server run.
  const bare = await startBareHttpServer({ port: BARE_PORT })
  // Warmed until V8 has compiled its hot path: measured after a thousand requests, a bare request
  // cost 0.17 ms of CPU, and 0.06 ms after a few thousand, which made the first store's multiples
  // of it incomparable with the others'.
  for (let index = 0; index < BARE_WARM_UP; index++) await timeTrivialRoute(bare.base)
  try {
    for (const [index, setup] of serverSetups.entries()) {
      if (!SERVERS.includes(setup.name)) continue
      runs[setup.name] = await measureSetup({ setup, port: PORT + index, bare })
      printServerRun(runs[setup.name]!)
    }
  } finally {
    await bare.stop()
  }
  printSummary(runs)
}
const storeTime = HTTP.sequential > 0 && SERVERS.length > 0 ? await measureResumeStoreTime(HTTP.sequential, Object.keys(runs) as SetupName[]) : undefined
if (storeTime) printStoreTime(storeTime)

const mcp = MCP_BOOKINGS > 0 ? await measureMcpServer() : undefined
if (mcp) {
  console.log(`\nMCP booking over /api/mcp (embedded store; each round a POST whose requestState carries the journal):`)
  console.log(`  trivial route (GET /api/health)       ${summary(mcp.floor)}`)
  console.log(`  2026-07-28 round                      ${summary(mcp.rounds)}`)
  console.log(`  2025 session answer (round trip)      ${summary(mcp.session)}`)
  console.log(`  2026 round p50 / trivial p50 = ${mcp.ratio.toFixed(2)}x (target <= 2x): ${verdict(mcp.ratio <= 2)}`)
}

const mcpOauth = MCP_OAUTH_BOOKINGS > 0 ? await measureMcpOauth() : undefined
if (mcpOauth) {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  console.log(`\nMCP booking's server CPU, static MCP_AUTH_TOKEN vs an OAuth JWT (keys cached; embedded store, ${MCP_OAUTH_BOOKINGS} each, blocks of 10 alternating):`)
  console.log(`  static token   ${median(mcpOauth.staticMs).toFixed(2)} ms a booking (median of blocks)`)
  console.log(`  JWT            ${median(mcpOauth.jwtMs).toFixed(2)} ms a booking (median of blocks)`)
  console.log(`  JWT / static = ${mcpOauth.ratio.toFixed(3)}x (target <= 1.10x): ${verdict(mcpOauth.ratio <= 1.1)}`)
}

const signIn = SIGN_IN_BOOKINGS > 0 ? await measureSignIn() : undefined
if (signIn) {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  console.log(`\nA booking's server CPU, a guest vs signed in (sign-in on, AUTH_GUESTS=on; embedded store, ${SIGN_IN_BOOKINGS} each, blocks of 10 alternating):`)
  console.log(`  guest (no sign-in)   ${median(signIn.guestMs).toFixed(2)} ms a booking (median of blocks)`)
  console.log(`  signed in            ${median(signIn.signedInMs).toFixed(2)} ms a booking (median of blocks)`)
  console.log(`  signed in / guest = ${signIn.ratio.toFixed(3)}x (target <= ${SIGN_IN_CPU_TARGET}x): ${verdict(signIn.ratio <= SIGN_IN_CPU_TARGET)}`)
}

if (MCP_INSTANCE_BOOKINGS > 0) {
  console.log(`\nA 2025 MCP round across instances (issue 29): two servers on one Redis, ${MCP_INSTANCE_BOOKINGS} bookings each way, alternating...`)
}
const mcpInstances = MCP_INSTANCE_BOOKINGS > 0 ? await measureMcpInstances({ ports: MCP_INSTANCES_PORTS, bookings: MCP_INSTANCE_BOOKINGS }) : undefined
if (mcpInstances) {
  console.log(`  answer round, every request on one instance        ${summary(mcpInstances.single)}`)
  if (mcpInstances.failure !== undefined) {
    console.log(`  answer round, answer sent to the other instance    FAILED: ${mcpInstances.failure}`)
    console.log(`  across / one instance: not measured (the bookings across instances did not complete): MISSES TARGET`)
  } else {
    console.log(`  answer round, answer sent to the other instance    ${summary(mcpInstances.across)}`)
    const ratio = mcpInstances.ratio!
    console.log(`  across p50 / one instance p50 = ${ratio.toFixed(2)}x (target <= ${MCP_INSTANCES_TARGET}x): ${verdict(ratio <= MCP_INSTANCES_TARGET)}`)
  }
}

if (OVERLOAD.answers > 0) {
  console.log(
    `\nOverload (issue 28): one server, embedded store, the default limits, TRUST_PROXY=1 (every client of the bench its own address); without a flood, then with one spending the server-wide budget...`,
  )
}
const overload = OVERLOAD.answers > 0 ? await measureOverload({ port: OVERLOAD_PORT, counts: OVERLOAD }) : undefined
if (overload) printOverload(overload)

if (LIGHTHOUSE_RUNS > 0) console.log(`\nFirst load (issue 26): Lighthouse 12.8, mobile, ${LIGHTHOUSE_RUNS} runs of each page, medians...`)
const firstLoad = LIGHTHOUSE_RUNS > 0 ? await measureFirstLoadOnce() : undefined
if (firstLoad) {
  console.log(`  ${describePageLoad('the chat (/)', firstLoad.chat)}`)
  console.log(`  ${describePageLoad('a bare Next page (the 404)', firstLoad.bare)}`)
  console.log(
    `  JavaScript ${firstLoad.chat.scriptKiB.toFixed(1)} KiB (target ≤ ${FIRST_LOAD_SCRIPT_KIB_TARGET}): ${verdict(firstLoad.chat.scriptKiB <= FIRST_LOAD_SCRIPT_KIB_TARGET)}; ` +
      `LCP ${firstLoad.lcpRatio.toFixed(2)}× the bare page's (target ≤ ${FIRST_LOAD_LCP_RATIO_TARGET}×): ${verdict(firstLoad.lcpRatio <= FIRST_LOAD_LCP_RATIO_TARGET)}`,
  )
}

async function measureFirstLoadOnce() {
  const server = await startServer({ port: FIRST_LOAD_PORT, env: {} })
  try {
    return await measureFirstLoad({ base: server.base, runs: LIGHTHOUSE_RUNS })
  } finally {
    await server.stop()
  }
}

if (CHATS > 0 || HISTORY_CPU_BOOKINGS > 0 || OPEN_CHAT_RUNS > 0) console.log('\nChats kept on the server (issue 25)...')
const conversations = {
  list: CHATS > 0 ? await measureChatLists() : undefined,
  historyCpu: HISTORY_CPU_BOOKINGS > 0 ? await measureHistoryCpuOnBoth() : undefined,
  openChat: OPEN_CHAT_RUNS > 0 ? await measureOpenChat({ port: CONVERSATIONS_PORT, runs: OPEN_CHAT_RUNS }) : undefined,
}
if (conversations.openChat) {
  const { openChat } = conversations
  console.log(
    `  a chat of ${openChat.messages} messages opened in Chromium (median of ${openChat.runs}): ${openChat.openMs.toFixed(0)} ms from navigation, ` +
      `${openChat.renderMs.toFixed(0)} ms from its JSON to the page (target ≤ ${OPEN_CHAT_RENDER_MS_TARGET} ms): ${verdict(openChat.renderMs <= OPEN_CHAT_RENDER_MS_TARGET)}`,
  )
}

if (APP_QUESTION_RUNS > 0) {
  console.log(
    `\nAn app-rendered question in MCP Inspector's web client (Chromium, its default 2025-11-25), ${APP_QUESTION_RUNS} bookings after one unmeasured (the first run ever downloads Inspector and Node 22 with npx)...`,
  )
}
const appQuestion = APP_QUESTION_RUNS > 0 ? await measureAppQuestion({ runs: APP_QUESTION_RUNS, apps: process.env.BENCH_APP_QUESTION_APPS || undefined }) : undefined
if (appQuestion) {
  const { flight, seat, appFrame, server } = appQuestion
  console.log(`  Inspector ${appQuestion.inspector}, ${appQuestion.protocol}. Each figure is an UPPER BOUND of "elicitation/create arrives -> component visible":`)
  console.log(`  from the person's click that makes the server ask (a capturing listener's Date.now()) to the app frame's first contentful paint`)
  console.log(`  flight (click Execute Tool -> FlightList painted)           ${summary(flight)}`)
  console.log(`    of which the app's frame, created -> painted              ${summary(appFrame.flight)}`)
  console.log(`    the server's round (call -> question, plain client)       ${summary(server.flight)}`)
  console.log(`  seat (click a flight -> SeatPicker painted)                 ${summary(seat)}`)
  console.log(`    of which the app's frame, created -> painted              ${summary(appFrame.seat)}`)
  console.log(`    the server's round (answer -> question, plain client)     ${summary(server.seat)}`)
  const worst = Math.max(percentile(flight, 95), percentile(seat, 95))
  console.log(`  p95 of the two, upper bound: ${ms(worst)} (less the server's round it is still ${ms(worst - Math.max(percentile(server.flight, 50), percentile(server.seat, 50)))})`)
  const phases = describePhases(appQuestion)
  console.log(`  Where it goes, from the messages each frame received:\n${indent(phases.lines.join('\n'))}`)
  console.log(`  elicitation/create parsed by Inspector -> painted, p95 of the worse question: ${ms(phases.arrivedToPaintedP95)} (target <= ${APP_QUESTION_MS_TARGET} ms): ${verdict(phases.arrivedToPaintedP95 <= APP_QUESTION_MS_TARGET)}`)
  console.log(`  of which our own (the app's load and script, its render and paint), p95: ${ms(phases.ourP95)} (target <= ${APP_QUESTION_OWN_MS_TARGET} ms): ${verdict(phases.ourP95 <= APP_QUESTION_OWN_MS_TARGET)}`)
}

/** The list's figures on each store, printed as they come. */
async function measureChatLists() {
  const data = makeTempDir('conversations')
  const embedded = await measureConversations('embedded', () => useEmbeddedConversationStore({ directory: data.path })).finally(() => data.remove())
  console.log(indent(describeConversationMeasures(embedded)))
  const redisServer = await startRedisServer()
  const redis = await measureConversations('redis', () => useRedisConversationStore({ url: redisServer.url })).finally(() => redisServer.stop())
  console.log(indent(describeConversationMeasures(redis)))
  return { embedded, redis }
}

/** A booking's CPU with and without its chat kept: on the default embedded store (the target), then on the memory store (the engine's part alone). */
async function measureHistoryCpuOnBoth() {
  const blocks = 6
  const bookingsPerBlock = Math.max(1, Math.round(HISTORY_CPU_BOOKINGS / blocks))
  const results = []
  for (const store of ['embedded', 'memory'] as const) {
    const result = await measureHistoryCpu({ port: CONVERSATIONS_PORT, store, bookingsPerBlock, blocks })
    console.log(`  a booking's server CPU, ${describeHistoryCpu(result)}: ${verdict(result.followedGrowth <= HISTORY_CPU_GROWTH_TARGET)}`)
    results.push(result)
  }
  const concurrent = HISTORY_CONCURRENT > 0 ? await measureHistoryConcurrent({ port: CONVERSATIONS_PORT, concurrent: HISTORY_CONCURRENT }) : undefined
  if (concurrent) console.log(`  ${describeHistoryConcurrent(concurrent)}: ${verdict(concurrentShare(concurrent) >= HISTORY_CONCURRENT_SHARE_TARGET)}`)
  return { cpu: results, concurrent }
}

function indent(text: string) {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}

if (HTTP_LEAK_BOOKINGS > 0) console.log(`\nHeap kept per booking over HTTP (${HTTP_LEAK_STORE} store, ${HTTP_LEAK_BOOKINGS} bookings; this takes a while)...`)
const httpHeap = HTTP_LEAK_BOOKINGS > 0 ? await measureHttpHeap({ store: HTTP_LEAK_STORE, port: HTTP_LEAK_PORT, inspectorPort: INSPECTOR_PORT, bookings: HTTP_LEAK_BOOKINGS }) : undefined
if (httpHeap) {
  console.log(
    `  production server, heap read through --inspect after two forced collections; ${httpHeap.warmUp} bookings of warm-up, then a baseline of ${httpHeap.baselineMB.toFixed(1)} MB; ${httpHeap.bookings} bookings in ${httpHeap.seconds.toFixed(1)} s:`,
  )
  for (const point of httpHeap.checkpoints) {
    console.log(`    after ${String(point.bookings).padStart(6)}: heap ${point.heapMB.toFixed(1)} MB, ${point.keptPerBookingBytes.toFixed(0)} bytes kept per booking since the baseline`)
  }
  if (httpHeap.lateKeptPerBookingBytes !== undefined) {
    const [last, beforeLast] = [httpHeap.checkpoints.at(-1)!, httpHeap.checkpoints.at(-2)!]
    console.log(
      `    between ${beforeLast.bookings} and ${last.bookings}: ${httpHeap.lateKeptPerBookingBytes.toFixed(0)} bytes per booking (warm-up falls from one reading to the next; a leak stays flat)`,
    )
  }
  console.log(`    by design: ${storeKeeps(HTTP_LEAK_STORE)}`)
}

function printOverload({ calm, flooded, spentAfterMs, ratio, counts }: OverloadMeasures) {
  const flood = flooded.flood!
  const rate = (value: number) => `${((value / flood.counts.done) * flood.perSecond).toFixed(0)}/s`
  console.log(
    `  flood: ${counts.floodLoops} loops in a child process, ${counts.floodAddresses} addresses (one per /24), junk POST /api/chat ({}: charged to the server's budget, then 400); first server-scope 429 after ${(spentAfterMs / 1000).toFixed(2)} s`,
  )
  console.log(
    `    while measured: ${flood.perSecond.toFixed(0)} requests/s: 400 ${rate(flood.counts.badRequest)}, 429 server ${rate(flood.counts.serverRefused)}, 429 address ${rate(flood.counts.addressRefused)}, other ${flood.counts.other}, errors ${flood.counts.errors} (${flood.counts.done} in ${flooded.seconds.toFixed(1)} s)`,
  )
  console.log(`  server CPU, every thread: ${percent(calm.serverCpuShare, 1)} of one core without the flood, ${percent(flooded.serverCpuShare, 1)} with it`)
  const p = (values: number[], at: number) => ms(percentile(values, at)).padStart(10)
  const times = (admitted: Admitted[]) => admitted.map((client) => client.ms)
  const row = (label: string, without: number[], under: number[]) =>
    console.log(
      `  ${label.padEnd(38)} ${p(without, 50)} ${p(without, 95)} ${String(without.length).padStart(4)}   ${p(under, 50)} ${p(under, 95)} ${String(under.length).padStart(4)}   ${`${(percentile(under, 95) / percentile(without, 95)).toFixed(2)}x`.padStart(7)}`,
    )
  console.log(`  ${''.padEnd(38)} ${'without: p50'.padStart(10)} ${'p95'.padStart(10)} ${'n'.padStart(4)}   ${'flood: p50'.padStart(10)} ${'p95'.padStart(10)} ${'n'.padStart(4)}   ${'p95 x'.padStart(7)}`)
  row('answer (flight in, SeatPicker out)', calm.answers, flooded.answers)
  row('new client: time to admission', times(calm.admitted), times(flooded.admitted))
  row('trivial route (GET /api/health)', calm.trivial, flooded.trivial)
  const tries = (phase: typeof calm) => {
    const all = phase.admitted.map((client) => client.tries)
    return `max ${ms(Math.max(...times(phase.admitted)))}, ${all.filter((value) => value === 1).length} of ${all.length} on the first try, at most ${Math.max(...all)} tries, ${phase.notAdmitted} not admitted`
  }
  console.log(`  new clients without the flood: ${tries(calm)}`)
  console.log(`  new clients with the flood:    ${tries(flooded)}`)
  const failures = calm.answerFailures + flooded.answerFailures
  console.log(`  answers failed: ${failures}${calm.firstFailure ?? flooded.firstFailure ? ` (first failure: ${calm.firstFailure ?? flooded.firstFailure})` : ''}`)
  console.log(`  answer p95 with the flood / without = ${ratio.toFixed(2)}x (target <= ${OVERLOAD_TARGET}x): ${verdict(ratio <= OVERLOAD_TARGET && failures === 0)}`)
}

/** What a store keeps of ended sessions by design, said beside the heap figure so it is not read as a leak. */
function storeKeeps(store: SetupName): string {
  if (store === 'memory') return 'ended session records are kept an hour, in this heap (the memory store): part of the figure is those, not a leak'
  if (store === 'redis') return 'ended session records are kept an hour, in redis-server, not in this heap'
  return 'ended session records are kept an hour, in SQLite on disk (the embedded store), not in the heap: the figure is what the engine and Next keep'
}

async function measureMcpServer() {
  const setup = serverSetups.find((candidate) => candidate.name === 'embedded')!
  const prepared = await setup.prepare()
  try {
    const server = await startServer({ port: PORT + serverSetups.length, env: prepared.env })
    try {
      return await measureMcp(server.base, MCP_BOOKINGS)
    } finally {
      await server.stop()
    }
  } finally {
    await prepared.cleanup()
  }
}

async function measureMcpOauth() {
  const setup = serverSetups.find((candidate) => candidate.name === 'embedded')!
  const prepared = await setup.prepare()
  try {
    return await measureBearerCpu({ port: MCP_OAUTH_PORT, env: prepared.env, bookings: MCP_OAUTH_BOOKINGS })
  } finally {
    await prepared.cleanup()
  }
}

async function measureSignIn() {
  const prepared = await serverSetups.find((candidate) => candidate.name === 'embedded')!.prepare()
  try {
    return await measureSignInCpu({ port: SIGN_IN_PORT, env: prepared.env, bookings: SIGN_IN_BOOKINGS })
  } finally {
    await prepared.cleanup()
  }
}

const waiting = WAITING > 0 ? await measureWaitingSessions(WAITING) : undefined
if (waiting) {
  console.log(`\n${waiting.sessions} waiting sessions kept hot (live tools in memory, memory store, in-process):`)
  console.log(`  heap per waiting session: ${waiting.heapPerSessionKB.toFixed(2)} KB (target <= 20 KB): ${verdict(waiting.heapPerSessionKB <= 20)}`)
  console.log(
    `  CPU while idle over ${waiting.idleMs / 1000} s: ${waiting.waitingCpuMs.toFixed(1)} ms with them waiting, ${waiting.baselineCpuMs.toFixed(1)} ms with none: ${idleVerdict(waiting.waitingCpuMs, waiting.baselineCpuMs, waiting.idleMs)}`,
  )
}

if (DEHYDRATED > 0) console.log(`\nStarting ${DEHYDRATED} waiting sessions in-process with the embedded store and hot time 0 (this takes a while)...`)
const dehydrated = DEHYDRATED > 0 ? await measureDehydratedSessions(DEHYDRATED) : undefined
if (dehydrated) {
  console.log(`${dehydrated.sessions} waiting sessions dropped from memory (embedded store in a temp dir, hot time 0, in-process):`)
  console.log(
    `  started in ${dehydrated.startSeconds.toFixed(1)} s (${dehydrated.startsPerSecond.toFixed(0)} a second); ${dehydrated.waitingInStore} waiting in the store`,
  )
  console.log(
    `  heap per waiting session: ${(dehydrated.heapPerSessionKB * 1024).toFixed(0)} bytes (${dehydrated.heapPerSessionKB.toFixed(3)} KB; target <= 3 KB): ${verdict(dehydrated.heapPerSessionKB <= 3)}`,
  )
  console.log(
    `  heap ${dehydrated.heapBeforeMB.toFixed(1)} MB -> ${dehydrated.heapAfterMB.toFixed(1)} MB; RSS +${dehydrated.rssPerSessionKB.toFixed(2)} KB a session (the store's pages, not heap)`,
  )
  console.log(
    `  CPU while idle over ${dehydrated.idleMs / 1000} s: ${dehydrated.waitingCpuMs.toFixed(1)} ms with them waiting, ${dehydrated.baselineCpuMs.toFixed(1)} ms with none: ${idleVerdict(dehydrated.waitingCpuMs, dehydrated.baselineCpuMs, dehydrated.idleMs)}`,
  )
  const { answered } = dehydrated
  console.log(
    `  answering ${answered.count} of them (the oldest first), each replayed then booked to the end: the oldest ${ms(answered.oldestMs)}, p50 ${ms(answered.p50Ms)}, max ${ms(answered.maxMs)} (flight in, SeatPicker out)`,
  )
}

const leak = LEAK_BOOKINGS > 0 ? await measureRetainedHeap(LEAK_BOOKINGS) : undefined
if (leak) {
  console.log(`\n${leak.bookings} bookings in-process (memory store, ${leak.seconds.toFixed(1)} s), ${leak.activeAfter} sessions left:`)
  console.log(
    `  heap ${leak.heapBeforeMB.toFixed(1)} MB -> ${leak.heapAfterMB.toFixed(1)} MB, ${leak.retainedPerBookingBytes.toFixed(1)} bytes kept per booking, of which ${leak.keptRecordsPerBookingBytes.toFixed(1)} are the ended records the store keeps for an hour by design (${leak.recordsKept} records)`,
  )
  console.log(
    `  the rest, kept by the engine: ${leak.engineRetainedPerBookingBytes.toFixed(1)} bytes per booking (target < 100): ${verdict(leak.engineRetainedPerBookingBytes < 100 && leak.activeAfter === 0)}`,
  )
}

if (TRACES_BOOKINGS > 0) console.log('\nTraces (issue 37)...')
// Short blocks (10 bookings), many of them: the machine's load changes within seconds, and each block's three servers share it.
const traces = TRACES_BOOKINGS > 0 ? await measureTracesCpu({ bookingsPerBlock: 10, blocks: Math.max(3, Math.round(TRACES_BOOKINGS / 10)) }) : undefined
if (traces) console.log(`  a booking's server CPU: ${describeTracesCpu(traces)}: ${verdict(traces.offGrowth <= NO_EXPORTER_GROWTH_TARGET && traces.growth <= TRACES_CPU_GROWTH_TARGET)}`)

mkdirSync('bench/results', { recursive: true })
writeFileSync(
  'bench/results/latest.json',
  JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, loadBefore, loadAfter: loadavg() },
      counts: {
        ...HTTP,
        waiting: WAITING,
        dehydrated: DEHYDRATED,
        bookings: LEAK_BOOKINGS,
        mcpBookings: MCP_BOOKINGS,
        mcpOauthBookings: MCP_OAUTH_BOOKINGS,
        signInBookings: SIGN_IN_BOOKINGS,
        mcpInstanceBookings: MCP_INSTANCE_BOOKINGS,
        httpLeakBookings: HTTP_LEAK_BOOKINGS,
        overload: OVERLOAD,
        chats: CHATS,
        historyCpuBookings: HISTORY_CPU_BOOKINGS,
        openChatRuns: OPEN_CHAT_RUNS,
        appQuestionRuns: APP_QUESTION_RUNS,
        tracesBookings: TRACES_BOOKINGS,
      },
      servers: runs,
      storeTime,
      mcp,
      mcpOauth,
      signIn,
      mcpInstances,
      overload,
      firstLoad,
      conversations,
      traces,
      appQuestion,
      httpHeap,
      waiting,
      dehydrated,
      leak,
    },
    null,
    2,
  ),
)
console.log(`\nLoad average ${load()}. Figures written to bench/results/latest.json`)
