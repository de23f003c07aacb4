// What keeping chats on the server costs a booking (issue 25: at most +10% of CPU): the
// production server with the embedded store, the server's CPU (from /proc) over bookings made
// one after another, without `chatId` (nothing stored, as an API client) and with it (the chat
// made by `POST /api/chats`, its three turns and every batch of events stored), in alternating
// blocks so that the machine's drift falls on both alike.
// Alone: npx tsx bench/history-cpu.ts [bookings per block] [blocks]   (builds first if needed)
// In `npm run bench`: call `measureHistoryCpu` from the servers section (bench/run.ts).
import { bookOverHttp, createKeptChat } from './booking-client'
import { processCpuMs } from './process-cpu'
import { startServer } from './server-process'
import { makeTempDir } from './temp-dir'
import { createServer } from 'node:net'

export interface HistoryCpu {
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

/** A port nobody listens on now (`BENCH_PORT` when set). */
async function freePort(): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT)
  return await new Promise((resolve, reject) => {
    const listener = createServer().listen(0, '127.0.0.1', () => {
      const { port } = listener.address() as { port: number }
      listener.close(() => resolve(port))
    })
    listener.once('error', reject)
  })
}

export async function measureHistoryCpu({ bookingsPerBlock = 100, blocks = 6, warmUp = 200 } = {}): Promise<HistoryCpu> {
  const dataDir = makeTempDir('history-cpu')
  // `HISTORY_CPU_STORE=memory`: sessions and chats in memory, to tell the engine's part from the store's.
  const server = await startServer({ port: await freePort(), env: { DATA_DIR: dataDir.path, REDIS_URL: '', SESSION_STORE: process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : '' } })
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
    return { bookings, withoutChatMs, withChatMs, growth: withChatMs / withoutChatMs - 1, createChatMs: creating / created }
  } finally {
    await server.stop()
    dataDir.remove()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const result = await measureHistoryCpu({ bookingsPerBlock: perBlock || undefined, blocks: blocks || undefined })
  console.log(
    `A booking's server CPU, ${result.bookings} each, ${process.env.HISTORY_CPU_STORE === 'memory' ? 'memory' : 'embedded'} store: without chatId ${result.withoutChatMs.toFixed(2)} ms, with chatId ${result.withChatMs.toFixed(2)} ms: ` +
      `${(result.growth * 100).toFixed(1)}% (target ≤ ${HISTORY_CPU_GROWTH_TARGET * 100}%); making a chat ${result.createChatMs.toFixed(2)} ms, once per chat`,
  )
}
