// What keeping chats on the server costs a booking (issue 25: at most +10% of CPU): the
// production server with the embedded store, the server's CPU (from /proc) over bookings made
// one after another, without `chatId` (nothing stored, as an API client) and as the chat page
// books (a new chat, made by its first turn with `newChat`, its three turns and every batch of
// events stored; the chat's making included), in alternating blocks so that the machine's drift
// falls on both alike. Then 200 bookings at once each way (flows per second), alternating too.
// Alone: npx tsx bench/history-cpu.ts [bookings per block] [blocks]   (builds first if needed;
// HISTORY_CPU_STORE=memory for sessions and chats in memory; HISTORY_CONCURRENT bookings at once, 200 by default, 0 for none)
// In `npm run bench`: the conversations section (BENCH_HISTORY_CPU_BOOKINGS).
import { newChatId } from '../lib/protocol'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { freePort } from '../lib/testing/server-process'
import { startServer, type ServerProcess } from './server-process'
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
}: {
  port: number
  /** 'memory': sessions and chats in memory, to tell the engine's part from the store's. */
  store?: HistoryCpuStore
  bookingsPerBlock?: number
  blocks?: number
  warmUp?: number
}): Promise<HistoryCpu> {
  return await withServer(port, store, async (server, book) => {
    const block = async (kept: boolean, bookings: number) => {
      const before = processCpuMs(server.pid)
      for (let index = 0; index < bookings; index++) await book(kept)
      return processCpuMs(server.pid) - before
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
    return { store, bookings, withoutChatMs, withChatMs, growth: withChatMs / withoutChatMs - 1 }
  })
}

/** `concurrent` bookings at once without `chatId`, then as many in new kept chats, `rounds` times (which goes first alternating), after a warm-up of each. */
export async function measureHistoryConcurrent({
  port,
  store = 'embedded',
  concurrent = 200,
  rounds = 2,
}: {
  port: number
  store?: HistoryCpuStore
  concurrent?: number
  rounds?: number
}): Promise<HistoryConcurrent> {
  return await withServer(port, store, async (_server, book) => {
    const atOnce = async (kept: boolean) => {
      const started = performance.now()
      await Promise.all(Array.from({ length: concurrent }, () => book(kept)))
      return concurrent / ((performance.now() - started) / 1000)
    }
    for (let index = 0; index < 100; index++) await book(index % 2 === 0)
    const without: number[] = []
    const withChat: number[] = []
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        without.push(await atOnce(false))
        withChat.push(await atOnce(true))
      } else {
        withChat.push(await atOnce(true))
        without.push(await atOnce(false))
      }
    }
    return { store, concurrent, without, withChat }
  })
}

/** A production server on `store` for `measure`, with a booking each way: as an API client, or as the chat page books (a new chat, its id made by the browser, made by the first of its three turns). */
async function withServer<T>(port: number, store: HistoryCpuStore, measure: (server: ServerProcess, book: (kept: boolean) => Promise<unknown>) => Promise<T>): Promise<T> {
  const dataDir = makeTempDir('history-cpu')
  const server = await startServer({ port, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: store === 'memory' ? 'memory' : '' } })
  try {
    return await measure(server, (kept) => bookOverHttp({ baseUrl: server.base, chat: kept ? { id: newChatId(), newChat: true } : undefined }))
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
export function concurrentShare(result: HistoryConcurrent): number {
  const sum = (rates: number[]) => rates.reduce((total, rate) => total + rate, 0)
  return sum(result.withChat) / sum(result.without)
}

export function describeHistoryConcurrent(result: HistoryConcurrent): string {
  const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  return (
    `${result.store} store, ${result.concurrent} bookings at once: without chatId ${rates(result.without)} flows/s, in new kept chats ${rates(result.withChat)} flows/s, ` +
    `${(concurrentShare(result) * 100).toFixed(0)}% (target ≥ ${HISTORY_CONCURRENT_SHARE_TARGET * 100}%)`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const store: HistoryCpuStore = process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : 'embedded'
  const port = Number(process.env.BENCH_PORT) || (await freePort({ host: '127.0.0.1' }))
  const result = await measureHistoryCpu({ port, store, bookingsPerBlock: perBlock || undefined, blocks: blocks || undefined })
  console.log(`A booking's server CPU: ${describeHistoryCpu(result)}`)
  const concurrent = Number(process.env.HISTORY_CONCURRENT ?? 200)
  if (concurrent > 0) console.log(describeHistoryConcurrent(await measureHistoryConcurrent({ port, store, concurrent })))
}
