// What keeping chats on the server costs a booking (issue 25: at most +10% of CPU): the
// production server with the embedded store, the server's CPU (from /proc) over bookings made
// one after another, without `chatId` (nothing stored, as an API client) and as the chat page
// books (a new chat, made by its first turn with `newChat`, its three turns and every batch of
// events stored; the chat's making included), in alternating blocks so that the machine's drift
// falls on both alike. Then 200 bookings at once each way (flows per second), alternating too.
// Alone: npx tsx bench/history-cpu.ts [bookings per block] [blocks]   (builds first if needed;
// HISTORY_CPU_STORE=memory for sessions and chats in memory)
// In `npm run bench`: the conversations section (BENCH_HISTORY_CPU_BOOKINGS).
import { newChatId } from '../lib/protocol'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { freePort } from '../lib/testing/server-process'
import { startServer } from './server-process'
import { makeTempDir } from './temp-dir'

export interface HistoryCpu {
  /** Where sessions and chats were kept: 'embedded' (the default) or 'memory' (the engine's part alone). */
  store: HistoryCpuStore
  bookings: number
  /** Server CPU per booking, ms: as an API client (nothing stored). */
  withoutChatMs: number
  /** …in a chat made beforehand (its three turns and their events stored). */
  withChatMs: number
  /** withChatMs / withoutChatMs − 1: the target is ≤ 0.10. */
  growth: number
  /** Bookings at once, each way, per round. */
  concurrent: number
  /** Flows per second of `concurrent` bookings at once, each round: without `chatId`… */
  concurrentWithout: number[]
  /** …and each in a new chat kept on the server. The target: at least 90% of the rate without. */
  concurrentWith: number[]
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
  warmUp = 200,
  concurrent = 200,
  concurrentRounds = 2,
}: {
  port: number
  /** 'memory': sessions and chats in memory, to tell the engine's part from the store's. */
  store?: HistoryCpuStore
  bookingsPerBlock?: number
  blocks?: number
  warmUp?: number
  /** Bookings at once (0: none). */
  concurrent?: number
  concurrentRounds?: number
}): Promise<HistoryCpu> {
  const dataDir = makeTempDir('history-cpu')
  const server = await startServer({ port, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: store === 'memory' ? 'memory' : '' } })
  try {
    // As the chat page books: a new chat (its id made by the browser), made by the first of its three turns.
    const book = (kept: boolean) => bookOverHttp({ baseUrl: server.base, chat: kept ? { id: newChatId(), newChat: true } : undefined })
    const block = async (kept: boolean, bookings: number) => {
      const before = processCpuMs(server.pid)
      for (let index = 0; index < bookings; index++) await book(kept)
      return processCpuMs(server.pid) - before
    }
    const atOnce = async (kept: boolean) => {
      const started = performance.now()
      await Promise.all(Array.from({ length: concurrent }, () => book(kept)))
      return concurrent / ((performance.now() - started) / 1000)
    }
    await block(false, warmUp / 2)
    await block(true, warmUp / 2)
    let without = 0
    let withChat = 0
    for (let index = 0; index < blocks; index++) {
      // Alternating which goes first, too.
      if (index % 2 === 0) {
        without += await block(false, bookingsPerBlock)
        withChat += await block(true, bookingsPerBlock)
      } else {
        withChat += await block(true, bookingsPerBlock)
        without += await block(false, bookingsPerBlock)
      }
    }
    const bookings = bookingsPerBlock * blocks
    const withoutChatMs = without / bookings
    const withChatMs = withChat / bookings
    const concurrentWithout: number[] = []
    const concurrentWith: number[] = []
    for (let round = 0; round < (concurrent > 0 ? concurrentRounds : 0); round++) {
      if (round % 2 === 0) {
        concurrentWithout.push(await atOnce(false))
        concurrentWith.push(await atOnce(true))
      } else {
        concurrentWith.push(await atOnce(true))
        concurrentWithout.push(await atOnce(false))
      }
    }
    return { store, bookings, withoutChatMs, withChatMs, growth: withChatMs / withoutChatMs - 1, concurrent, concurrentWithout, concurrentWith }
  } finally {
    await server.stop()
    dataDir.remove()
  }
}

export function describeHistoryCpu(result: HistoryCpu): string {
  return (
    `${result.store} store, ${result.bookings} bookings each: without chatId ${result.withoutChatMs.toFixed(2)} ms, with chatId ${result.withChatMs.toFixed(2)} ms, ` +
    `+${(result.growth * 100).toFixed(1)}% (target ≤ ${HISTORY_CPU_GROWTH_TARGET * 100}%), the chat's making included`
  )
}

/** The rate of bookings at once in kept chats ÷ without: the sums of the rounds'. */
export function concurrentShare(result: HistoryCpu): number {
  const sum = (rates: number[]) => rates.reduce((total, rate) => total + rate, 0)
  return sum(result.concurrentWith) / sum(result.concurrentWithout)
}

export function describeHistoryConcurrent(result: HistoryCpu): string {
  const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  return (
    `${result.store} store, ${result.concurrent} bookings at once: without chatId ${rates(result.concurrentWithout)} flows/s, in kept chats ${rates(result.concurrentWith)} flows/s, ` +
    `${(concurrentShare(result) * 100).toFixed(0)}% (target ≥ ${HISTORY_CONCURRENT_SHARE_TARGET * 100}%)`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const store: HistoryCpuStore = process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : 'embedded'
  const result = await measureHistoryCpu({ port: Number(process.env.BENCH_PORT) || (await freePort({ host: '127.0.0.1' })), store, bookingsPerBlock: perBlock || undefined, blocks: blocks || undefined })
  console.log(`A booking's server CPU: ${describeHistoryCpu(result)}`)
  if (result.concurrent > 0) console.log(describeHistoryConcurrent(result))
}
