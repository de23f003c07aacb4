// What keeping chats on the server costs a booking (issue 25: at most +10% of CPU): the
// production server with the embedded store, the server's CPU (from /proc) over bookings made
// one after another, without `chatId` (nothing stored, as an API client) and with it (the chat
// made by `POST /api/chats`, its three turns and every batch of events stored), in alternating
// blocks so that the machine's drift falls on both alike.
// Alone: npx tsx bench/history-cpu.ts [bookings per block] [blocks]   (builds first if needed;
// HISTORY_CPU_STORE=memory for sessions and chats in memory)
// In `npm run bench`: the conversations section (BENCH_HISTORY_CPU_BOOKINGS).
import { bookOverHttp, createKeptChat } from './booking-client'
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
  /** Server CPU of making the chat (`POST /api/chats`, once per chat, not per booking), ms. */
  createChatMs: number
}

export const HISTORY_CPU_GROWTH_TARGET = 0.1

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
  const dataDir = makeTempDir('history-cpu')
  const server = await startServer({ port, env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: store === 'memory' ? 'memory' : '' } })
  try {
    let creating = 0
    let created = 0
    const block = async (kept: boolean, bookings: number) => {
      // Each booking in a chat of its own, made before (its making measured apart): what a turn costs with history on.
      const creatingBefore = processCpuMs(server.pid)
      const chats = kept ? await Promise.all(Array.from({ length: bookings }, () => createKeptChat(server.base))) : []
      if (kept) {
        creating += processCpuMs(server.pid) - creatingBefore
        created += bookings
      }
      const before = processCpuMs(server.pid)
      for (let index = 0; index < bookings; index++) await bookOverHttp({ baseUrl: server.base, chat: chats[index] })
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
    return { store, bookings, withoutChatMs, withChatMs, growth: withChatMs / withoutChatMs - 1, createChatMs: creating / created }
  } finally {
    await server.stop()
    dataDir.remove()
  }
}

export function describeHistoryCpu(result: HistoryCpu): string {
  return (
    `${result.store} store, ${result.bookings} bookings each: without chatId ${result.withoutChatMs.toFixed(2)} ms, with chatId ${result.withChatMs.toFixed(2)} ms, ` +
    `+${(result.growth * 100).toFixed(1)}% (target ≤ ${HISTORY_CPU_GROWTH_TARGET * 100}%); making a chat ${result.createChatMs.toFixed(2)} ms, once per chat`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const store: HistoryCpuStore = process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : 'embedded'
  const result = await measureHistoryCpu({ port: await freePort({ host: '127.0.0.1' }), store, bookingsPerBlock: perBlock || undefined, blocks: blocks || undefined })
  console.log(`A booking's server CPU: ${describeHistoryCpu(result)}`)
}
