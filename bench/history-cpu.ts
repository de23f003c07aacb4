// What keeping chats on the server costs a booking (issue 25: at most +10% of CPU): the
// production server with the embedded store, the server's CPU (from /proc) over bookings made
// one after another three ways, in rotating blocks so that the machine's drift falls on all
// alike: without `chatId` (nothing stored, as an API client); the chat page's turns alone (a new
// chat, made by its first turn with `newChat`, its three turns and every batch of events stored;
// the chat's making included); and as the chat page books, which also follows each question it
// shows (on the response of the turn that asked it, `follow`, held until the person answers, then let go) — the path
// people take, on which the target is judged. Then 200 bookings at once, without chats and the
// turns alone (flows per second), alternating too.
// Alone: npx tsx bench/history-cpu.ts [bookings per block] [blocks]   (builds first if needed;
// HISTORY_CPU_STORE=memory for sessions and chats in memory; HISTORY_CONCURRENT bookings at once, 200 by default, 0 for none;
// HISTORY_WARM_UP bookings before the blocks, a third each way, 1000 by default: a server's CPU per booking still fell by
// a third over its first thousand, and a block pair measured in that descent shared it unevenly)
// In `npm run bench`: the conversations section (BENCH_HISTORY_CPU_BOOKINGS).
import { newChatId } from '../lib/protocol'
import { bookOverHttp } from './booking-client'
import { meanInterval, median } from './stats'
import { processCpuMs } from './process-cpu'
import { freePort } from '../lib/testing/server-process'
import { startServer, type ServerProcess } from './server-process'
import { makeTempDir } from './temp-dir'

export interface HistoryCpu {
  /** Where sessions and chats were kept: 'embedded' (the default) or 'memory' (the engine's part alone). */
  store: HistoryCpuStore
  bookings: number
  /** Server CPU per booking, ms, the median of the blocks: as an API client (nothing stored). */
  withoutChatMs: number
  /** …in a new chat made by its first turn (its three turns and their events stored). */
  withChatMs: number
  /** …and as the chat page makes it: the same, and each question it shows followed until it is answered. */
  followedMs: number
  /** The median, over the sets of blocks run one after the other, of kept ÷ without, − 1: the turns' part. */
  growth: number
  /** The same of followed ÷ without: the page's booking, the target (≤ 0.10). */
  followedGrowth: number
  /** Server CPU per booking of each block, ms, in the order they ran. */
  blocks: { without: number[]; withChat: number[]; followed: number[] }
}

/** Bookings at once, each way: flows per second, without `chatId` and each in a new chat kept on the server. */
export interface HistoryConcurrent {
  store: HistoryCpuStore
  /** Bookings at once, each way, per round. */
  concurrent: number
  /** Flows per second of `concurrent` bookings at once, each round: without `chatId`… */
  without: number[]
  /** …and each in a new chat kept on the server. The target: at least 90% of the rate without. */
  withChat: number[]
  /** The server's CPU per booking in those rounds, ms, each round: the same figure as the rate, less what other processes took. */
  cpuMs: { without: number[]; withChat: number[] }
}

export const HISTORY_CPU_GROWTH_TARGET = 0.1
/** 200 bookings at once in kept chats: at least this share of the rate without chats. */
export const HISTORY_CONCURRENT_SHARE_TARGET = 0.9

export type HistoryCpuStore = 'embedded' | 'memory'

export async function measureHistoryCpu({
  port,
  store = 'embedded',
  bookingsPerBlock = 100,
  blocks = 6,
  warmUp = 1000,
}: {
  port: number
  /** 'memory': sessions and chats in memory, to tell the engine's part from the store's. */
  store?: HistoryCpuStore
  bookingsPerBlock?: number
  blocks?: number
  warmUp?: number
}): Promise<HistoryCpu> {
  return await withServer(port, store, async (server, book) => {
    const block = async (way: BookingWay, bookings: number) => {
      const before = processCpuMs(server.pid)
      for (let index = 0; index < bookings; index++) await book(way)
      return (processCpuMs(server.pid) - before) / bookings
    }
    for (const way of WAYS) await block(way, Math.round(warmUp / WAYS.length))
    const measured: Record<BookingWay, number[]> = { without: [], kept: [], followed: [] }
    for (let index = 0; index < blocks; index++) {
      // Which goes first turns too: each way runs first, second and last as often.
      for (let step = 0; step < WAYS.length; step++) {
        const way = WAYS[(index + step) % WAYS.length]!
        measured[way].push(await block(way, bookingsPerBlock))
      }
    }
    // Each set of blocks ran side by side, so their ratio holds while the machine's load drifts
    // from set to set (it moves a block's CPU by half on a shared machine); the median of the
    // ratios leaves out a set that another process's burst split.
    const growthOf = (way: BookingWay) => median(measured.without.map((ms, index) => measured[way][index]! / ms)) - 1
    return {
      store,
      bookings: bookingsPerBlock * blocks,
      withoutChatMs: median(measured.without),
      withChatMs: median(measured.kept),
      followedMs: median(measured.followed),
      growth: growthOf('kept'),
      followedGrowth: growthOf('followed'),
      blocks: { without: measured.without, withChat: measured.kept, followed: measured.followed },
    }
  })
}

/**
 * `concurrent` bookings at once without `chatId`, then as many in new kept chats, `rounds` times
 * (which goes first alternating), after one unmeasured round of each. A booking at once waits
 * for all the others, so on a busy machine a round takes long: its requests may take up to
 * `timeoutMs` (the bench measures a rate, and a round must end rather than fail).
 */
export async function measureHistoryConcurrent({
  port,
  store = 'embedded',
  concurrent = 200,
  rounds = 4,
  timeoutMs = 300_000,
}: {
  port: number
  store?: HistoryCpuStore
  concurrent?: number
  rounds?: number
  timeoutMs?: number
}): Promise<HistoryConcurrent> {
  return await withServer(port, store, async (server, book) => {
    const atOnce = async (kept: boolean) => {
      const cpuBefore = processCpuMs(server.pid)
      const started = performance.now()
      await Promise.all(Array.from({ length: concurrent }, () => book(kept ? 'kept' : 'without', timeoutMs)))
      return { rate: concurrent / ((performance.now() - started) / 1000), cpuMs: (processCpuMs(server.pid) - cpuBefore) / concurrent }
    }
    for (let index = 0; index < 100; index++) await book(index % 2 === 0 ? 'without' : 'kept')
    await atOnce(false)
    await atOnce(true)
    const result: HistoryConcurrent = { store, concurrent, without: [], withChat: [], cpuMs: { without: [], withChat: [] } }
    const record = (kept: boolean, { rate, cpuMs }: { rate: number; cpuMs: number }) => {
      ;(kept ? result.withChat : result.without).push(rate)
      ;(kept ? result.cpuMs.withChat : result.cpuMs.without).push(cpuMs)
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false]
      for (const kept of order) record(kept, await atOnce(kept))
    }
    return result
  })
}

/**
 * How a booking is made: as an API client (no `chatId`), as the chat page's turns alone (a new chat
 * made by the first of its three turns, its id made by the browser), or as the chat page makes
 * it, each question it shows followed on the server until it is answered (`follow`).
 */
export type BookingWay = 'without' | 'kept' | 'followed'
const WAYS: readonly BookingWay[] = ['without', 'kept', 'followed']

/** A production server on `store` for `measure`, with a booking each way. */
async function withServer<T>(port: number, store: HistoryCpuStore, measure: (server: ServerProcess, book: (way: BookingWay, timeoutMs?: number) => Promise<unknown>) => Promise<T>): Promise<T> {
  const dataDir = makeTempDir('history-cpu')
  const server = await startServer({ port, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: store === 'memory' ? 'memory' : '' } })
  try {
    return await measure(server, (way, timeoutMs) =>
      bookOverHttp({ baseUrl: server.base, chat: way === 'without' ? undefined : { id: newChatId(), newChat: true, follow: way === 'followed' }, timeoutMs }),
    )
  } finally {
    await server.stop()
    dataDir.remove()
  }
}

export function describeHistoryCpu(result: HistoryCpu): string {
  const blocks = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ')
  return (
    `${result.store} store, ${result.bookings} bookings each way: without chatId ${result.withoutChatMs.toFixed(2)} ms; ` +
    `as the page books, each question followed, ${result.followedMs.toFixed(2)} ms, ${signed(result.followedGrowth)} (the median of the sets' ratios; target ≤ ${HISTORY_CPU_GROWTH_TARGET * 100}%; ${interval(result, 'followed')}); ` +
    `its turns alone ${result.withChatMs.toFixed(2)} ms, ${signed(result.growth)} (${interval(result, 'withChat')}); the chat's making included ` +
    `(medians; blocks: ${blocks(result.blocks.without)} / ${blocks(result.blocks.withChat)} / ${blocks(result.blocks.followed)})`
  )
}

const signed = (growth: number) => `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%`

/** A way's mean growth over the sets with its 95% interval: an interval on one side of the target settles it on this machine. */
function interval(result: HistoryCpu, way: 'withChat' | 'followed'): string {
  const { mean, low, high } = meanInterval(result.blocks[way].map((ms, index) => ms / result.blocks.without[index]! - 1))
  return `mean ${signed(mean)}, 95% interval ${signed(low)} to ${signed(high)}`
}

/** The rate of bookings at once in kept chats ÷ without: the median of the rounds' (each round's two ran one after the other). */
export function concurrentShare(result: HistoryConcurrent): number {
  return median(result.withChat.map((rate, index) => rate / result.without[index]!))
}

export function describeHistoryConcurrent(result: HistoryConcurrent): string {
  const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  const cpu = (values: number[]) => median(values).toFixed(2)
  return (
    `${result.store} store, ${result.concurrent} bookings at once: without chatId ${rates(result.without)} flows/s, in new kept chats ${rates(result.withChat)} flows/s, ` +
    `${(concurrentShare(result) * 100).toFixed(0)}% of the median rate (target ≥ ${HISTORY_CONCURRENT_SHARE_TARGET * 100}%); ` +
    `server CPU per booking in those rounds ${cpu(result.cpuMs.without)} and ${cpu(result.cpuMs.withChat)} ms (+${((median(result.cpuMs.withChat.map((ms, index) => ms / result.cpuMs.without[index]!)) - 1) * 100).toFixed(1)}%)`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const store: HistoryCpuStore = process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : 'embedded'
  const port = Number(process.env.BENCH_PORT) || (await freePort({ host: '127.0.0.1' }))
  const result = await measureHistoryCpu({ port, store, bookingsPerBlock: perBlock || undefined, blocks: blocks || undefined, warmUp: Number(process.env.HISTORY_WARM_UP) || undefined })
  console.log(`A booking's server CPU: ${describeHistoryCpu(result)}`)
  const concurrent = Number(process.env.HISTORY_CONCURRENT ?? 200)
  if (concurrent > 0) console.log(describeHistoryConcurrent(await measureHistoryConcurrent({ port, store, concurrent })))
}
