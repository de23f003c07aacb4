// Two builds side by side, for a change's before and after in the same conditions: each build's
// production servers, two ways of booking on each build, the four in blocks whose order rotates
// so that the machine's load falls on all four alike. Per round of four blocks: each build's
// second way ÷ its first, and the second build ÷ the first for each way; the medians over rounds.
//   kept (issue 38): embedded store, one server per build; bookings without chatId, and in new kept chats.
//   telemetry (issue 37): memory store, two servers per build; the telemetry bypassed
//     (BENCH_WITHOUT_TELEMETRY=1), and as deployed without an OTLP endpoint.
// npx tsx bench/compare-builds.ts <kept|telemetry> <dir of build 1> <dir of build 2> [bookings per block] [rounds]
// (each dir holds a .next/standalone of its own, e.g. a copy of one made by `npm run build`).
import { readFileSync } from 'node:fs'
import { newChatId } from '../lib/protocol'
import { freePort } from '../lib/testing/server-process'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { startServer, type ServerProcess } from './server-process'
import { median } from './stats'
import { makeTempDir } from './temp-dir'

const [mode, first, second, perBlockArg, roundsArg] = process.argv.slice(2)
if ((mode !== 'kept' && mode !== 'telemetry') || !first || !second) {
  throw new Error('usage: compare-builds.ts <kept|telemetry> <build dir 1> <build dir 2> [bookings per block] [rounds]')
}
const perBlock = Number(perBlockArg) || 10
const rounds = Number(roundsArg) || 20

/** The two ways compared on each build: the server's environment and whether bookings keep a chat. */
const WAYS = {
  kept: [
    { name: 'without chatId', env: { SESSION_STORE: '' }, kept: false },
    { name: 'kept chat', env: { SESSION_STORE: '' }, kept: true },
  ],
  telemetry: [
    { name: 'telemetry bypassed', env: { SESSION_STORE: 'memory', OTEL_EXPORTER_OTLP_ENDPOINT: '', BENCH_WITHOUT_TELEMETRY: '1' }, kept: false },
    { name: 'no exporter', env: { SESSION_STORE: 'memory', OTEL_EXPORTER_OTLP_ENDPOINT: '', BENCH_WITHOUT_TELEMETRY: '' }, kept: false },
  ],
}[mode]

const removals: Array<() => void> = []
const servers = new Map<string, ServerProcess>()
/** The build in `dir`'s server with `env` (one per build and environment): started from that directory. */
async function serverOf(dir: string, env: Record<string, string>): Promise<ServerProcess> {
  const key = `${dir} ${JSON.stringify(env)}`
  const running = servers.get(key)
  if (running) return running
  const here = process.cwd()
  const data = makeTempDir('compare-builds')
  removals.push(data.remove)
  process.chdir(dir)
  try {
    const server = await startServer({ port: await freePort({ host: '127.0.0.1' }), env: { DATA_DIR: data.path, REDIS_URL: '', ...env } })
    servers.set(key, server)
    return server
  } finally {
    process.chdir(here)
  }
}

const blocks = [] as Array<{ server: ServerProcess; kept: boolean }>
for (const dir of [first, second]) for (const way of WAYS) blocks.push({ server: await serverOf(dir, way.env), kept: way.kept })
const block = async ({ server, kept }: (typeof blocks)[number], bookings: number) => {
  const before = processCpuMs(server.pid)
  for (let index = 0; index < bookings; index++) await bookOverHttp({ baseUrl: server.base, chat: kept ? { id: newChatId(), newChat: true } : undefined })
  return (processCpuMs(server.pid) - before) / bookings
}
try {
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  const loadBefore = load()
  for (const each of blocks) await block(each, 100)
  const ms: number[][] = blocks.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < blocks.length; step++) {
      const index = (round + step) % blocks.length
      ms[index]!.push(await block(blocks[index]!, perBlock))
    }
  }
  const ratio = (a: number, b: number) => median(ms[a]!.map((value, round) => value / ms[b]![round]!))
  const pct = (value: number) => `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(1)}%`
  const [one, two] = WAYS.map((way) => way.name)
  console.log(`${mode}: ${rounds} rounds of ${perBlock} bookings each way, load ${loadBefore} → ${load()}`)
  for (const [build, dir] of [first, second].entries()) {
    const at = build * 2
    console.log(`build ${build + 1} (${dir}): ${one} ${median(ms[at]!).toFixed(2)} ms, ${two} ${median(ms[at + 1]!).toFixed(2)} ms, ${two} ÷ ${one} ${pct(ratio(at + 1, at))}`)
  }
  console.log(`build 2 ÷ build 1: ${one} ${pct(ratio(2, 0))}, ${two} ${pct(ratio(3, 1))} (medians of the rounds' ratios)`)
} finally {
  for (const server of servers.values()) await server.stop()
  for (const remove of removals) remove()
}
