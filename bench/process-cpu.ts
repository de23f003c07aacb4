import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100

/**
 * CPU time another process's threads have used so far, in ms to the nanosecond: the sum over
 * `/proc/<pid>/task/<tid>/schedstat` of its first field (nanoseconds on a CPU), every thread
 * counted (the main thread, libuv's pool, V8's GC helpers, any a native store starts).
 * `/proc/<pid>/stat` counts in 1/CLK_TCK steps (10 ms), too coarse to read around one request.
 *
 * A thread that exits between two reads takes its time with it (its schedstat is gone, while
 * `/proc/<pid>/stat` keeps the time of exited threads): a difference can only under-count.
 * Node's threads live as long as the process, so this is rare; `processStatCpuMs` is kept to
 * check that both agree over a whole run (the bench prints both).
 */
export function processCpuMs(pid: number): number {
  let nanoseconds = 0
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // The thread exited after the directory was listed: its time is lost (see above).
    }
  }
  return nanoseconds / 1e6
}

/** CPU time (user + system, every thread, exited ones included) from `/proc/<pid>/stat`: in 1/CLK_TCK steps (10 ms). */
export function processStatCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const utime = Number(fields[14 - 3])
  const stime = Number(fields[15 - 3])
  return ((utime + stime) / ticksPerSecond) * 1000
}

/** Both readings at one moment, to compare their differences over a long stretch. */
export function cpuReadings(pid: number): { schedstatMs: number; statMs: number } {
  return { schedstatMs: processCpuMs(pid), statMs: processStatCpuMs(pid) }
}

/** The CPU process `pid` spends per call of `call`, run `calls` times one after another. */
export async function cpuPerCall(pid: number, calls: number, call: () => Promise<unknown>): Promise<{ calls: number; totalMs: number; perCallMs: number }> {
  const before = processCpuMs(pid)
  for (let index = 0; index < calls; index++) await call()
  const totalMs = processCpuMs(pid) - before
  return { calls, totalMs, perCallMs: totalMs / calls }
}
