import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100

/** CPU time (user + system, every thread) another process has used so far, from /proc: in 1/CLK_TCK steps (10 ms). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const utime = Number(fields[14 - 3])
  const stime = Number(fields[15 - 3])
  return ((utime + stime) / ticksPerSecond) * 1000
}

/** The CPU process `pid` spends per call of `call`, run `calls` times one after another. */
export async function cpuPerCall(pid: number, calls: number, call: () => Promise<unknown>): Promise<{ calls: number; totalMs: number; perCallMs: number }> {
  const before = processCpuMs(pid)
  for (let index = 0; index < calls; index++) await call()
  const totalMs = processCpuMs(pid) - before
  return { calls, totalMs, perCallMs: totalMs / calls }
}
