import { bookOverHttp, type RequestKind, type Timed } from './booking-client'
import { cpuPerCall } from './process-cpu'
import type { ServerProcess } from './server-process'
import { timeTrivialRoute } from './trivial-route'

export interface HttpCounts {
  /** Bookings timed one after another, each followed by three trivial requests. */
  sequential: number
  /** Bookings started at once. */
  concurrent: number
  /** Bookings, then trivial requests, one after another, while the server's CPU time is read. */
  cpuBookings: number
  cpuTrivial: number
}

export type HttpMeasures = Awaited<ReturnType<typeof measureOverHttp>>

/**
 * Against one server process: the time of each request of a booking and of the trivial route
 * (interleaved, so both see the same conditions), the server's CPU per booking and per trivial
 * request, and many bookings at once.
 */
export async function measureOverHttp(server: ServerProcess, counts: HttpCounts) {
  const { base, pid } = server
  for (let index = 0; index < 50; index++) {
    await bookOverHttp(base)
    await timeTrivialRoute(base)
  }
  const timings: Timed[] = []
  const floor: number[] = []
  for (let index = 0; index < counts.sequential; index++) {
    timings.push(...(await bookOverHttp(base)))
    floor.push(await timeTrivialRoute(base), await timeTrivialRoute(base), await timeTrivialRoute(base))
  }
  const byKind = (kind: RequestKind) => timings.filter((timing) => timing.kind === kind).map((timing) => timing.ms)

  const cpu = {
    booking: await cpuPerCall(pid, counts.cpuBookings, () => bookOverHttp(base)),
    trivial: await cpuPerCall(pid, counts.cpuTrivial, () => timeTrivialRoute(base)),
  }

  const started = performance.now()
  const results = await Promise.allSettled(Array.from({ length: counts.concurrent }, () => bookOverHttp(base)))
  const concurrentSeconds = (performance.now() - started) / 1000
  const failures = results.filter((result) => result.status === 'rejected')
  return {
    floor,
    start: byKind('start'),
    resume: byKind('resume'),
    finish: byKind('finish'),
    cpu,
    concurrent: {
      bookings: counts.concurrent,
      failures: failures.length,
      seconds: concurrentSeconds,
      firstFailure: failures[0] && String((failures[0] as PromiseRejectedResult).reason),
    },
  }
}
