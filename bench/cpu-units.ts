/**
 * A CPU figure in ms and as multiples of the two floors measured in the same run: a bare
 * `node:http` request (what any Node server pays) and Next's trivial route (what any request
 * to this app pays before our code runs). Milliseconds move with the machine and its load;
 * the multiples hold across machines, which is what the throughput targets are written in.
 */
export interface CpuInUnits {
  ms: number
  /** ms ÷ the CPU of a bare node:http request */
  bare: number
  /** ms ÷ the CPU of GET /api/health through Next */
  trivial: number
}

export function cpuInUnits({ ms, bareMs, trivialMs }: { ms: number; bareMs: number; trivialMs: number }): CpuInUnits {
  return { ms, bare: ms / bareMs, trivial: ms / trivialMs }
}

export function formatCpu(cpu: CpuInUnits): string {
  return `${cpu.ms.toFixed(2)} ms = ${cpu.bare.toFixed(1)}x bare = ${cpu.trivial.toFixed(2)}x trivial`
}
