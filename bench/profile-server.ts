// `npx tsx bench/profile-server.ts [bookings]`: where the production server's CPU goes per
// booking (three requests, embedded store, offline model without delay). The build in the
// current directory runs with --cpu-prof; build it with `NEXT_PROFILE_BUILD=1 npm run build`
// first, so that its chunks keep their function names. Prints the server's CPU per booking
// by area (Next, Node's HTTP and sockets, web streams, Effection, our code, the store, GC …)
// and the functions that cost most themselves. Figures for the README's performance section.
// `BENCH_PROFILE_FLOW=mcp`: MCP bookings instead, three 2026-07-28 rounds over /api/mcp each;
// `BENCH_PROFILE_FLOW=kept`: each booking in a chat kept on the server, as the browser books.
// `BENCH_PROFILE_AT_ONCE=200`: the bookings in rounds of that many at once (one after another by default).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { newChatId } from '../lib/protocol'
import { bookOverHttp } from './booking-client'
import { bookOverMcpRounds } from './mcp-booking'
import { processCpuMs } from './process-cpu'
import { startServer } from './server-process'
import { makeTempDir } from './temp-dir'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const BOOKINGS = Number(process.argv[2] ?? 500)
const WARM_UP = 50
const MARK_MS = 1500
const AT_ONCE = Math.max(1, Number(process.env.BENCH_PROFILE_AT_ONCE) || 1)

/** The area a sampled function belongs to, by its script and name. */
function areaOf({ functionName: name, url }: ProfileNode['callFrame']): string {
  const where = `${url} ${name}`
  if (name === '(garbage collector)') return 'garbage collection'
  if (name === '(program)') return 'V8 (program)'
  if (/libsql|lmdb|msgpackr|startWriting/.test(where)) return 'session store (native)'
  if (/node_modules\/next\/|next-server|\[turbopack\]/.test(url)) return 'Next'
  if (/effection/.test(url)) return 'Effection'
  if (/zod/.test(url)) return 'Zod'
  if (/node_modules\/ai\/|@ai-sdk/.test(url)) return 'AI SDK'
  if (/webstreams|js_transferable|JSTransferable/.test(where)) return 'web streams'
  if (/node:_http|node:net|stream_base|node:internal\/streams|node:stream|node:zlib|compression|writev|writeUtf8String|writeLatin1String/.test(where)) return 'HTTP, sockets, streams'
  if (/async_hooks|promiseInitHook|promiseBeforeHook|promiseAfterHook|promiseResolveHook|runMicrotasks|task_queues/.test(where)) return 'async hooks, microtasks'
  if (/crypto|Hmac|randomFill|digest/.test(where)) return 'crypto'
  if (/undici/.test(url)) return 'undici (Request, Headers)'
  if (/\.next\/server\/chunks\//.test(url)) return 'our code (and what is bundled with it)'
  if (/^node:/.test(url)) return 'other Node internals'
  return 'other'
}

function summarise(profile: Profile, bookings: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfUs = new Map<number, number>()
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)))
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  let busyUs = 0
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)') continue
    busyUs += us
    const area = areaOf(frame)
    areas.set(area, (areas.get(area) ?? 0) + us)
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*\/node_modules\//, '').replace(/.*\/\.next\//, '.next/')}`
    functions.set(name, (functions.get(name) ?? 0) + us)
  }
  // The sampler counts wall time between samples, which a busy machine stretches: its shares
  // are kept, and scaled to the CPU the process really used (from /proc).
  const perBooking = (us: number) => `${((cpuPerBookingMs * us) / busyUs).toFixed(2)} ms`.padStart(9)
  const share = (us: number) => `${((100 * us) / busyUs).toFixed(1)}%`.padStart(6)
  console.log(`\nServer CPU per booking: ${cpuPerBookingMs.toFixed(2)} ms (from /proc; ${bookings} bookings after ${WARM_UP} to warm up), shared out as sampled:`)
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1])) console.log(`  ${perBooking(us)} ${share(us)}  ${area}`)
  console.log('\nThe functions that cost most themselves:')
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${perBooking(us)} ${share(us)}  ${name.slice(0, 110)}`)
}

const FLOW = process.env.BENCH_PROFILE_FLOW === 'mcp' ? 'mcp' : process.env.BENCH_PROFILE_FLOW === 'kept' ? 'kept' : 'chat'
let cpuPerBookingMs = 0
const dataDir = makeTempDir('profile-data')
// BENCH_PROFILE_DIR keeps the .cpuprofile (for DevTools, or to look further); a temp dir otherwise.
const kept = process.env.BENCH_PROFILE_DIR
const profiles = kept ? { path: kept, remove() {} } : makeTempDir('profile')
try {
  const server = await startServer({
    port: Number(process.env.BENCH_PORT ?? 3380),
    env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: '', SESSION_SECRET: '' },
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profiles.path],
  })
  // Bookings at once wait for each other: on a busy machine a round takes longer than one request's usual 30 s.
  const timeoutMs = AT_ONCE > 1 ? 300_000 : undefined
  const book =
    FLOW === 'mcp' ? () => bookOverMcpRounds(server.base) : () => bookOverHttp({ baseUrl: server.base, chat: FLOW === 'kept' ? { id: newChatId(), newChat: true } : undefined, timeoutMs })
  try {
    for (let index = 0; index < WARM_UP; index++) await book()
    // A pause the profile shows as a long idle stretch: what comes before it (start-up, warm-up) is left out.
    await new Promise((resolve) => setTimeout(resolve, MARK_MS))
    const started = performance.now()
    const cpuBefore = processCpuMs(server.pid)
    for (let done = 0; done < BOOKINGS; done += AT_ONCE) await Promise.all(Array.from({ length: Math.min(AT_ONCE, BOOKINGS - done) }, () => book()))
    cpuPerBookingMs = (processCpuMs(server.pid) - cpuBefore) / BOOKINGS
    console.log(`${BOOKINGS} ${FLOW === 'mcp' ? 'MCP ' : FLOW === 'kept' ? 'kept-chat ' : ''}bookings${AT_ONCE > 1 ? ` in rounds of ${AT_ONCE} at once` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await server.stop()
  }
  const file = readdirSync(profiles.path).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error('the server wrote no profile')
  const profile = JSON.parse(readFileSync(join(profiles.path, file), 'utf8')) as Profile
  summarise(afterPause(profile), BOOKINGS)
} finally {
  dataDir.remove()
  profiles.remove()
}

/** The samples after the first idle stretch of `MARK_MS` (less a margin for timer slack). */
function afterPause(profile: Profile): Profile {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  let idleUs = 0
  for (let index = 0; index < profile.samples.length; index++) {
    const idle = byId.get(profile.samples[index]!)!.callFrame.functionName === '(idle)'
    idleUs = idle ? idleUs + (profile.timeDeltas[index] ?? 0) : 0
    if (idleUs >= (MARK_MS - 200) * 1000) {
      return { ...profile, samples: profile.samples.slice(index + 1), timeDeltas: profile.timeDeltas.slice(index + 1) }
    }
  }
  throw new Error('the pause after the warm-up is not in the profile')
}
