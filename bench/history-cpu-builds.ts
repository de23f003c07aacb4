// Two builds side by side (issue 38's before/after): each build's production server on the
// embedded store, bookings without chatId and in new kept chats, the four in blocks whose order
// rotates, so that the machine's load falls on all four alike. Per round of four blocks: each
// build's kept ÷ without, and the second build's kept ÷ the first's kept.
// npx tsx bench/history-cpu-builds.ts <dir of build 1> <dir of build 2> [bookings per block] [rounds]
// (each dir holds a .next/standalone of its own, e.g. copied after `npm run build`).
import { newChatId } from '../lib/protocol'
import { freePort } from '../lib/testing/server-process'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { startServer, type ServerProcess } from './server-process'
import { median } from './stats'
import { makeTempDir } from './temp-dir'

const [first, second, perBlockArg, roundsArg] = process.argv.slice(2)
if (!first || !second) throw new Error('usage: history-cpu-builds.ts <build dir 1> <build dir 2> [bookings per block] [rounds]')
const perBlock = Number(perBlockArg) || 10
const rounds = Number(roundsArg) || 20

async function serverOf(dir: string): Promise<{ server: ServerProcess; remove(): void }> {
  const here = process.cwd()
  const data = makeTempDir('history-cpu-builds')
  process.chdir(dir)
  try {
    const server = await startServer({ port: await freePort({ host: '127.0.0.1' }), env: { DATA_DIR: data.path, REDIS_URL: '', SESSION_STORE: '' } })
    return { server, remove: data.remove }
  } finally {
    process.chdir(here)
  }
}

const builds = [await serverOf(first), await serverOf(second)]
type Way = { build: 0 | 1; kept: boolean }
const ways: Way[] = [{ build: 0, kept: false }, { build: 0, kept: true }, { build: 1, kept: false }, { build: 1, kept: true }]
const block = async ({ build, kept }: Way, bookings: number) => {
  const { server } = builds[build]!
  const before = processCpuMs(server.pid)
  for (let index = 0; index < bookings; index++) await bookOverHttp({ baseUrl: server.base, chat: kept ? { id: newChatId(), newChat: true } : undefined })
  return (processCpuMs(server.pid) - before) / bookings
}
try {
  for (const way of ways) await block(way, 100)
  const ms: number[][] = ways.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < ways.length; step++) {
      const index = (round + step) % ways.length
      ms[index]!.push(await block(ways[index]!, perBlock))
    }
  }
  const ratio = (a: number, b: number) => median(ms[a]!.map((value, round) => value / ms[b]![round]!))
  const pct = (value: number) => `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(1)}%`
  console.log(`load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`)
  console.log(`build 1 (${first}): without ${median(ms[0]!).toFixed(2)} ms, kept ${median(ms[1]!).toFixed(2)} ms, kept ÷ without ${pct(ratio(1, 0))}`)
  console.log(`build 2 (${second}): without ${median(ms[2]!).toFixed(2)} ms, kept ${median(ms[3]!).toFixed(2)} ms, kept ÷ without ${pct(ratio(3, 2))}`)
  console.log(`build 2 ÷ build 1: without ${pct(ratio(2, 0))}, kept ${pct(ratio(3, 1))} (medians of the rounds' ratios; ${rounds} rounds of ${perBlock})`)
} finally {
  for (const { server, remove } of builds) {
    await server.stop()
    remove()
  }
}
