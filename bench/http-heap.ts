import { bookOverHttp } from './booking-client'
import { connectInspectorHeap } from './inspector-heap'
import { startServer } from './server-process'
import { serverSetups, type SetupName } from './server-setups'

/** Bookings before the baseline: what the first requests build once (compiled code, caches, pools) is not a leak. */
const WARM_UP = 300
/** Points after the baseline where the heap is read too: if the heap kept per booking falls from one to the next, it was warm-up; a leak keeps it flat. */
const CHECKPOINTS = [300, 1_000]
/** Bookings in flight at once: enough to finish 10,000 in minutes on a shared machine, few enough that all have ended at each reading. */
const AT_ONCE = 4

export interface HeapCheckpoint {
  bookings: number
  heapMB: number
  /** (heap now − heap at the baseline) ÷ bookings since it */
  keptPerBookingBytes: number
}

export type HttpHeapMeasures = Awaited<ReturnType<typeof measureHttpHeap>>

/**
 * The heap the production server keeps per booking over HTTP, read from outside through its
 * inspector after forced collections: a warm-up, a baseline, then `bookings` bookings with the
 * heap read at a few points on the way, so warm-up (the figure per booking falls) and a leak
 * (it stays flat, the heap grows linearly) can be told apart.
 */
export async function measureHttpHeap({ store, port, inspectorPort, bookings }: { store: SetupName; port: number; inspectorPort: number; bookings: number }) {
  const setup = serverSetups.find((candidate) => candidate.name === store)
  if (!setup) throw new Error(`no server setup named ${store}`)
  const prepared = await setup.prepare()
  try {
    const server = await startServer({ port, env: prepared.env, nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`] })
    try {
      const inspector = await connectInspectorHeap({ port: inspectorPort })
      try {
        await book({ baseUrl: server.base, count: WARM_UP })
        const baseline = await inspector.heapAfterGc()
        const checkpoints: HeapCheckpoint[] = []
        let done = 0
        const started = performance.now()
        for (const point of [...CHECKPOINTS.filter((point) => point < bookings), bookings]) {
          await book({ baseUrl: server.base, count: point - done })
          done = point
          const heap = await inspector.heapAfterGc()
          checkpoints.push({ bookings: point, heapMB: heap / 2 ** 20, keptPerBookingBytes: (heap - baseline) / point })
        }
        const [last, beforeLast] = [checkpoints.at(-1)!, checkpoints.at(-2)]
        return {
          store,
          warmUp: WARM_UP,
          bookings,
          seconds: (performance.now() - started) / 1000,
          baselineMB: baseline / 2 ** 20,
          checkpoints,
          /** Between the last two readings: the slope, free of whatever the first bookings after the baseline still built. */
          lateKeptPerBookingBytes: beforeLast
            ? ((last.heapMB - beforeLast.heapMB) * 2 ** 20) / (last.bookings - beforeLast.bookings)
            : undefined,
        }
      } finally {
        inspector.close()
      }
    } finally {
      await server.stop()
    }
  } finally {
    await prepared.cleanup()
  }
}

/** `count` bookings, `AT_ONCE` at a time; throws on the first that fails. */
async function book({ baseUrl, count }: { baseUrl: string; count: number }) {
  let next = 0
  const worker = async () => {
    while (next < count) {
      next++
      await bookOverHttp({ baseUrl })
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, count) }, worker))
}
