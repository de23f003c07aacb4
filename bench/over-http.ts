import type { BareHttpServer } from './bare-http'
import { bookOverHttp, type RequestKind, type Timed } from './booking-client'
import { cpuInUnits } from './cpu-units'
import { cpuPerCall, cpuReadings, processCpuMs } from './process-cpu'
import type { ServerProcess } from './server-process'
import { timeTrivialRoute } from './trivial-route'

export interface HttpCounts {
  /**
   * Bookings (each with a trivial and a bare request) before anything is measured. A server's
   * CPU per booking keeps falling for about 1,300 bookings as V8 optimizes its code (6.4 ms to
   * 4.8 ms in one measurement, the trivial route 1.35 to 0.88 ms), and a deployed server is
   * past that: its steady state is what is measured.
   */
  warmUp: number
  /** Bookings timed one after another, each followed by three trivial requests and three bare ones. */
  sequential: number
  /** Bookings started at once. */
  concurrent: number
  /** Bookings, then trivial requests, then as many bare requests, one after another, while CPU time is read. */
  cpuBookings: number
  cpuTrivial: number
}

export type HttpMeasures = Awaited<ReturnType<typeof measureOverHttp>>

const KINDS: RequestKind[] = ['start', 'resume', 'finish']

/**
 * Against one server process, with the bare node:http server beside it: the time of each
 * request of a booking, of the trivial route and of a bare request (interleaved, so all see
 * the same conditions); the server's CPU per booking, per booking request and per trivial
 * request, and the bare server's per request; many bookings at once.
 */
export async function measureOverHttp({ server, bare, counts }: { server: ServerProcess; bare: BareHttpServer; counts: HttpCounts }) {
  const { base, pid } = server
  const runStart = cpuReadings(pid)
  for (let index = 0; index < counts.warmUp; index++) {
    await bookOverHttp({ baseUrl: base })
    await timeTrivialRoute(base)
    await timeTrivialRoute(bare.base)
  }
  const timings: Timed[] = []
  const floor: number[] = []
  const bareTimes: number[] = []
  for (let index = 0; index < counts.sequential; index++) {
    timings.push(...(await bookOverHttp({ baseUrl: base })))
    floor.push(await timeTrivialRoute(base), await timeTrivialRoute(base), await timeTrivialRoute(base))
    bareTimes.push(await timeTrivialRoute(bare.base), await timeTrivialRoute(bare.base), await timeTrivialRoute(bare.base))
  }
  const byKind = (kind: RequestKind) => timings.filter((timing) => timing.kind === kind).map((timing) => timing.ms)

  const bookingCpu = await cpuPerBookingRequest({ base, pid, bookings: counts.cpuBookings })
  const trivial = await cpuPerCall(pid, counts.cpuTrivial, () => timeTrivialRoute(base))
  // The bare server has mostly waited since its last burst, and V8 lets an idle process's
  // compiled code and young generation go cold: its first burst after a pause of a few seconds
  // costs twice what the next does (0.13 ms a request against 0.05 here). It is warmed again
  // here, unmeasured, so that each run divides by a warm bare request, as it does by a warm
  // trivial route (measured right after the bookings).
  for (let index = 0; index < counts.cpuTrivial; index++) await timeTrivialRoute(bare.base)
  const bareCpu = await cpuPerCall(bare.pid, counts.cpuTrivial, () => timeTrivialRoute(bare.base))
  const units = (ms: number) => cpuInUnits({ ms, bareMs: bareCpu.perCallMs, trivialMs: trivial.perCallMs })
  // Next's floor for a booking: what its three requests would cost if each were the trivial route.
  const nextFloorMs = 3 * trivial.perCallMs

  const started = performance.now()
  const results = await Promise.allSettled(Array.from({ length: counts.concurrent }, () => bookOverHttp({ baseUrl: base })))
  const concurrentSeconds = (performance.now() - started) / 1000
  const failures = results.filter((result) => result.status === 'rejected')
  const runEnd = cpuReadings(pid)
  return {
    floor,
    bare: bareTimes,
    start: byKind('start'),
    resume: byKind('resume'),
    finish: byKind('finish'),
    cpu: {
      booking: bookingCpu.booking,
      trivial,
      bare: bareCpu,
      units: {
        booking: units(bookingCpu.booking.perCallMs),
        start: units(bookingCpu.perRequest.start),
        resume: units(bookingCpu.perRequest.resume),
        finish: units(bookingCpu.perRequest.finish),
        /** CPU per booking spent outside its three requests' windows (after a last byte, between requests). */
        between: units(bookingCpu.booking.perCallMs - KINDS.reduce((sum, kind) => sum + bookingCpu.perRequest[kind], 0)),
        trivial: units(trivial.perCallMs),
        nextFloor: units(nextFloorMs),
        ours: units(bookingCpu.booking.perCallMs - nextFloorMs),
      },
      /** The server's CPU over this whole run read both ways: schedstat loses exited threads, stat counts in 10 ms ticks. */
      wholeRun: { schedstatMs: runEnd.schedstatMs - runStart.schedstatMs, statMs: runEnd.statMs - runStart.statMs },
    },
    concurrent: {
      bookings: counts.concurrent,
      failures: failures.length,
      seconds: concurrentSeconds,
      /** Bookings completed per second, all started at once. */
      flowsPerSecond: (counts.concurrent - failures.length) / concurrentSeconds,
      firstFailure: failures[0] && String((failures[0] as PromiseRejectedResult).reason),
    },
  }
}

/** `bookings` bookings one after another: the server's CPU per booking, and per request of each kind (read around each request). */
async function cpuPerBookingRequest({ base, pid, bookings }: { base: string; pid: number; bookings: number }) {
  const sums: Record<RequestKind, number> = { start: 0, resume: 0, finish: 0 }
  const before = processCpuMs(pid)
  for (let index = 0; index < bookings; index++) {
    for (const timing of await bookOverHttp({ baseUrl: base, serverPid: pid })) sums[timing.kind] += timing.cpuMs!
  }
  const totalMs = processCpuMs(pid) - before
  const perRequest = Object.fromEntries(KINDS.map((kind) => [kind, sums[kind] / bookings])) as Record<RequestKind, number>
  return { booking: { calls: bookings, totalMs, perCallMs: totalMs / bookings }, perRequest }
}
