import { setTimeout as sleep } from 'node:timers/promises'
import { createChatServer } from '../lib/engine/chat-server'
import { createChatTestClient, elicitRequests } from '../lib/engine/testing/chat-test-client'
import { createOfflineModel } from '../lib/models'
import { decodeModelContext } from '../lib/tools/model-context'
import { pluginTools } from '../plugins'
import type { Flight, SeatMap } from '../plugins/book-flight/flights'
import { freeSeat } from './booking-client'

const gc = (globalThis as { gc?: () => void }).gc

function heapAfterGc(): number {
  if (!gc) throw new Error('Run with node --expose-gc (npm run bench does).')
  for (let index = 0; index < 3; index++) gc()
  return process.memoryUsage().heapUsed
}

/** CPU this process uses while doing nothing for `ms` (after a collection, so GC is not counted). */
async function idleCpuMs(ms: number): Promise<number> {
  heapAfterGc()
  await sleep(200)
  const before = process.cpuUsage()
  await sleep(ms)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

async function createServer() {
  return createChatServer({ model: createOfflineModel({ delayMs: 0 }), tools: pluginTools })
}

/** Heap per waiting session and the CPU they cost while nobody answers. */
export async function measureWaitingSessions(count: number) {
  const chat = await createServer()
  await createChatTestClient({ chat }).say('warm up')
  const idleMs = 3_000
  const baselineCpuMs = await idleCpuMs(idleMs)
  const before = heapAfterGc()
  for (let index = 0; index < count; index++) {
    await createChatTestClient({ chat }).say('Book a flight from NYC to LAX')
  }
  const active = (await chat.listActive()).length
  const after = heapAfterGc()
  const waitingCpuMs = await idleCpuMs(idleMs)
  await chat.close()
  return { sessions: active, heapPerSessionKB: (after - before) / count / 1024, baselineCpuMs, waitingCpuMs, idleMs }
}

/** Heap kept after many finished bookings: what each request leaves behind. */
export async function measureRetainedHeap(bookings: number) {
  const chat = await createServer()
  const book = async () => {
    const client = createChatTestClient({ chat })
    const flightRequest = elicitRequests((await client.say('Book a flight from NYC to LAX')).events)[0]!
    const flights = decodeModelContext({ message: flightRequest.message, schema: flightRequest.schema }).context.flights as Flight[]
    const seatRequest = elicitRequests(
      (await client.answer([{ request: flightRequest, result: { action: 'accept', content: { flightId: flights[0]!.id } } }])).events,
    )[0]!
    const seatMap = decodeModelContext({ message: seatRequest.message, schema: seatRequest.schema }).context.seatMap as SeatMap
    await client.answer([{ request: seatRequest, result: { action: 'accept', content: freeSeat(seatMap) } }])
  }
  for (let index = 0; index < 500; index++) await book()
  const before = heapAfterGc()
  const started = performance.now()
  for (let index = 0; index < bookings; index++) await book()
  const seconds = (performance.now() - started) / 1000
  const after = heapAfterGc()
  const active = (await chat.listActive()).length
  await chat.close()
  return { bookings, activeAfter: active, retainedPerBookingBytes: (after - before) / bookings, heapBeforeMB: before / 2 ** 20, heapAfterMB: after / 2 ** 20, seconds }
}
