// What telemetry costs a booking (issue 37): three production servers of one build side by side,
// sessions in memory:
//   - baseline: BENCH_WITHOUT_TELEMETRY=1, every entry point of the telemetry bypassed (no request
//     hook: no log line, no request duration, no server span; no model-call, answer or store
//     observer): the code's path as it was before logs, metrics and traces;
//   - no exporter: the server as deployed without an OTLP endpoint (log lines, metrics, no SDK
//     loaded, no span made), its log lines written (to /dev/null: the bench ignores its stdout);
//   - exported: every span (100% sampling) over OTLP/HTTP protobuf to a live receiver in this
//     process, which reads each export and answers as a collector does.
// The server's CPU (from /proc) over bookings made one after another, in blocks whose order
// rotates, so that the machine's drift falls on all three alike; each block gives a ratio, and the
// figure is the median of the blocks' ratios (a busy moment spoils one block, not the figure).
// Alone: npx tsx bench/traces-cpu.ts [bookings per block] [blocks]   (builds first if needed;
// TRACES_WARM_UP bookings on each server before its blocks, 200 by default)
// In `npm run bench`: the traces section (BENCH_TRACES_BOOKINGS).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bookOverHttp } from './booking-client'
import { processCpuMs } from './process-cpu'
import { freePort } from '../lib/testing/server-process'
import { startServer, type ServerProcess } from './server-process'
import { meanInterval, median } from './stats'

export interface TracesCpu {
  bookings: number
  blocks: number
  /** Server CPU per booking, ms (all blocks together), with the telemetry bypassed. */
  baselineMs: number
  /** …as deployed without an OTLP endpoint. */
  offMs: number
  /** …exporting every span to a live receiver. */
  exportedMs: number
  /** Median over blocks of off ÷ baseline − 1: the target is ≤ 0.02. */
  offGrowth: number
  /** Median over blocks of exported ÷ off − 1: the target is ≤ 0.15. */
  growth: number
  /** Median over blocks of exported ÷ baseline − 1. */
  exportedGrowth: number
  /** Each block's off ÷ baseline − 1, in order. */
  offGrowthByBlock: number[]
  /** Each block's exported ÷ off − 1, in order. */
  growthByBlock: number[]
  /** How many times the three servers were started afresh, the blocks shared out among them. */
  processes: number
  /** OTLP bytes the receiver read per booking of the exporting server (three turns' spans). */
  otlpBytesPerBooking: number
}

export const TRACES_CPU_GROWTH_TARGET = 0.15
export const NO_EXPORTER_GROWTH_TARGET = 0.02


/**
 * `processes` rounds, each with three servers started afresh: a server process's own state (its
 * JIT, its heap) moves its bookings by a few percent for as long as it lives, which blocks on one
 * process cannot average out; fresh processes share that out among the three alike.
 */
export async function measureTracesCpu({ bookingsPerBlock = 10, blocks = 60, warmUp = 200, processes = 3 }: { bookingsPerBlock?: number; blocks?: number; warmUp?: number; processes?: number } = {}): Promise<TracesCpu> {
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
  const env = { SESSION_STORE: 'memory', REDIS_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', BENCH_WITHOUT_TELEMETRY: '' }
  type Name = 'baseline' | 'off' | 'exported'
  const names: Name[] = ['baseline', 'off', 'exported']
  const start = async (): Promise<Record<Name, ServerProcess>> => ({
    baseline: await startServer({ port: await freePort(), env: { ...env, BENCH_WITHOUT_TELEMETRY: '1' } }),
    off: await startServer({ port: await freePort(), env }),
    exported: await startServer({ port: await freePort(), env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' } }),
  })
  const totals: Record<Name, number> = { baseline: 0, off: 0, exported: 0 }
  const byBlock: Array<Record<Name, number>> = []
  const rounds = Math.max(1, Math.min(processes, blocks))
  try {
    for (let round = 0; round < rounds; round++) {
      const servers = await start()
      try {
        const block = async (name: Name, bookings: number) => {
          const server = servers[name]
          const before = processCpuMs(server.pid)
          for (let index = 0; index < bookings; index++) await bookOverHttp({ baseUrl: server.base })
          return processCpuMs(server.pid) - before
        }
        for (const name of names) await block(name, warmUp)
        const share = Math.floor(blocks / rounds) + (round < blocks % rounds ? 1 : 0)
        for (let index = 0; index < share; index++) {
          const cpu = { baseline: 0, off: 0, exported: 0 }
          // The order rotates: each server goes first, second and third equally often.
          for (let turn = 0; turn < names.length; turn++) {
            const name = names[(byBlock.length + turn) % names.length]!
            cpu[name] = await block(name, bookingsPerBlock)
            totals[name] += cpu[name]
          }
          byBlock.push(cpu)
        }
      } finally {
        await Promise.all(names.map((name) => servers[name].stop()))
      }
    }
    const bookings = bookingsPerBlock * blocks
    const offGrowthByBlock = byBlock.map((cpu) => cpu.off / cpu.baseline - 1)
    const growthByBlock = byBlock.map((cpu) => cpu.exported / cpu.off - 1)
    return {
      bookings,
      blocks,
      processes: rounds,
      baselineMs: totals.baseline / bookings,
      offMs: totals.off / bookings,
      exportedMs: totals.exported / bookings,
      offGrowth: median(offGrowthByBlock),
      growth: median(growthByBlock),
      exportedGrowth: median(byBlock.map((cpu) => cpu.exported / cpu.baseline - 1)),
      offGrowthByBlock,
      growthByBlock,
      otlpBytesPerBooking: bytes / (bookings + warmUp * rounds),
    }
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
}

const quartile = (values: number[], at: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(at * values.length))]!
const signed = (growth: number) => `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%`
/** The blocks' mean ratio with its 95% interval: an interval that holds the target on one side settles it. */
function interval(growths: number[]): string {
  const { mean, low, high } = meanInterval(growths)
  return `mean ${signed(mean)}, 95% interval ${signed(low)} to ${signed(high)}`
}

export function describeTracesCpu(result: TracesCpu): string {
  return (
    `${result.baselineMs.toFixed(2)} ms with the telemetry bypassed, ${result.offMs.toFixed(2)} ms without an OTLP endpoint ` +
    `(${signed(result.offGrowth)}, median of ${result.blocks} blocks on ${result.processes} processes each, target ≤ +${NO_EXPORTER_GROWTH_TARGET * 100}%; the blocks' quartiles ${signed(quartile(result.offGrowthByBlock, 0.25))} and ${signed(quartile(result.offGrowthByBlock, 0.75))}; ${interval(result.offGrowthByBlock)}), ` +
    `${result.exportedMs.toFixed(2)} ms exporting every span (${signed(result.growth)} of no exporter, target ≤ +${TRACES_CPU_GROWTH_TARGET * 100}%; ${interval(result.growthByBlock)}; ${signed(result.exportedGrowth)} of the bypassed), ` +
    `${result.bookings} bookings each, ${Math.round(result.otlpBytesPerBooking)} OTLP bytes exported per booking`
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [perBlock, blocks] = process.argv.slice(2).map(Number)
  const result = await measureTracesCpu({ bookingsPerBlock: perBlock || 10, blocks: blocks || 60, warmUp: Number(process.env.TRACES_WARM_UP) || undefined })
  console.log(`a booking's server CPU: ${describeTracesCpu(result)}`)
}
