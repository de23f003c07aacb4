import { createChatServer } from '../lib/engine/chat-server'
import { createOfflineModel } from '../lib/models'
import { createMemorySessionStore } from '../lib/sessions'
import type { MemorySessionEntry } from '../lib/sessions/stores/memory-store'
import { offlineSkills, pluginTools } from '../plugins'
import { bookInProcess, startBooking } from './in-process-booking'
import { heapAfterGc, idleCpuMs } from './own-process'

/** Idle CPU is measured over this long, with and without sessions. */
export const IDLE_MS = 3_000

/** A server with the memory store and the default hot time: every waiting tool stays live. */
async function createServer(entries?: Map<string, MemorySessionEntry>) {
  return createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: offlineSkills }),
    tools: pluginTools,
    useStore: entries ? function* () { return createMemorySessionStore(entries) } : undefined,
  })
}

/** Heap per waiting session kept hot (its tool live in memory) and the CPU they cost while nobody answers. */
export async function measureWaitingSessions(count: number) {
  const chat = await createServer()
  await startBooking(chat)
  const baselineCpuMs = await idleCpuMs(IDLE_MS)
  const before = heapAfterGc()
  for (let index = 0; index < count; index++) await startBooking(chat)
  const active = (await chat.listActive()).length - 1
  const after = heapAfterGc()
  const waitingCpuMs = await idleCpuMs(IDLE_MS)
  await chat.close()
  return { sessions: active, heapPerSessionKB: (after - before) / count / 1024, baselineCpuMs, waitingCpuMs, idleMs: IDLE_MS }
}

/**
 * Heap kept after many finished bookings: what each request leaves behind. The memory store
 * keeps each ended session's record for a while by design (so a late request learns how it
 * ended): the heap those records take is measured apart, by emptying the store at the end.
 */
export async function measureRetainedHeap(bookings: number) {
  const entries = new Map<string, MemorySessionEntry>()
  const chat = await createServer(entries)
  for (let index = 0; index < 500; index++) await bookInProcess(chat)
  entries.clear()
  const before = heapAfterGc()
  const started = performance.now()
  for (let index = 0; index < bookings; index++) await bookInProcess(chat)
  const seconds = (performance.now() - started) / 1000
  const after = heapAfterGc()
  const active = (await chat.listActive()).length
  const recordsKept = entries.size
  entries.clear()
  const afterWithoutRecords = heapAfterGc()
  await chat.close()
  return {
    bookings,
    activeAfter: active,
    retainedPerBookingBytes: (after - before) / bookings,
    /** Of which the ended records the memory store keeps. */
    keptRecordsPerBookingBytes: (after - afterWithoutRecords) / bookings,
    /** The rest: what the engine itself keeps. */
    engineRetainedPerBookingBytes: (afterWithoutRecords - before) / bookings,
    recordsKept,
    heapBeforeMB: before / 2 ** 20,
    heapAfterMB: after / 2 ** 20,
    seconds,
  }
}
