// What tracing costs a booking (issue 37: at most +15% of server CPU with every trace exported):
// two production servers side by side, sessions in memory, one without an OTLP endpoint (no SDK
// loaded, no span made) and one exporting every span (100% sampling) over OTLP/HTTP protobuf to
// a live receiver in this process, which reads each export and answers as a collector does. The
// server's CPU (from /proc) over bookings made one after another, in alternating blocks so that
// the machine's drift falls on both alike.
// Alone: npx tsx bench/traces-cpu.ts [bookings per block] [blocks]   (builds first if needed)
// In `npm run bench`: the traces section (BENCH_TRACES_BOOKINGS).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { freePort } from '../lib/testing/server-process'
import { startServer } from './server-process'

export interface TracesCpu {
  bookings: number
  /** Server CPU per booking, ms, without an OTLP endpoint. */
  offMs: number
  /** …exporting every span to a live receiver. */
  exportedMs: number
  /** exportedMs / offMs − 1: the target is ≤ 0.15. */
  growth: number
  /** OTLP bytes the receiver read per booking of the exporting server (three turns' spans). */
  otlpBytesPerBooking: number
}

export const TRACES_CPU_GROWTH_TARGET = 0.15

export async function measureTracesCpu({ bookingsPerBlock = 100, blocks = 6, warmUp = 200 }: { bookingsPerBlock?: number; blocks?: number; warmUp?: number } = {}): Promise<TracesCpu> {
  let bytes = 0
  // A live receiver: it reads every export to its end and answers 200, as a collector does.
  const receiver = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length))
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  const env = { SESSION_STORE: 'memory', REDIS_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: '' }
  const [offPort, onPort] = [await freePort(), await freePort()]
  const off = await startServer({ port: offPort, env })
  const on = await startServer({ port: onPort, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' } })
  try {
    const block = async (server: typeof off, bookings: number) => {
      const before = processCpuMs(server.pid)
      for (let index = 0; index < bookings; index++) await bookOverHttp({ baseUrl: server.base })
      return processCpuMs(server.pid) - before
    }
    await block(off, warmUp)
    await block(on, warmUp)
    let offCpu = 0
    let onCpu = 0
    for (let index = 0; index < blocks; index++) {
      if (index % 2 === 0) {
        offCpu += await block(off, bookingsPerBlock)
        onCpu += await block(on, bookingsPerBlock)
      } else {
        onCpu += await block(on, bookingsPerBlock)
        offCpu += await block(off, bookingsPerBlock)
      }
    }
    const bookings = bookingsPerBlock * blocks
    const offMs = offCpu / bookings
    const exportedMs = onCpu / bookings
    return { bookings, offMs, exportedMs, growth: exportedMs / offMs - 1, otlpBytesPerBooking: bytes / (bookings + warmUp) }
  } finally {
    await Promise.all([off.stop(), on.stop()])
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
}

export function describeTracesCpu(result: TracesCpu): string {
  const percent = (result.growth * 100).toFixed(1)
  return `${result.offMs.toFixed(2)} ms without an OTLP endpoint, ${result.exportedMs.toFixed(2)} ms exporting every span (${result.growth >= 0 ? '+' : ''}${percent}%, target ≤ +${TRACES_CPU_GROWTH_TARGET * 100}%), ${result.bookings} bookings each, ${Math.round(result.otlpBytesPerBooking)} OTLP bytes exported per booking`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const result = await measureTracesCpu({ bookingsPerBlock: perBlock || 100, blocks: blocks || 6 })
  console.log(`a booking's server CPU: ${describeTracesCpu(result)}`)
}
