import { setTimeout as sleep } from 'node:timers/promises'

const gc = (globalThis as { gc?: () => void }).gc

/** This process's heap once garbage is collected. */
export function heapAfterGc(): number {
  if (!gc) throw new Error('Run with node --expose-gc (npm run bench does).')
  for (let index = 0; index < 3; index++) gc()
  return process.memoryUsage().heapUsed
}

/** CPU this process uses while doing nothing for `ms` (after a collection, so GC is not counted). */
export async function idleCpuMs(ms: number): Promise<number> {
  heapAfterGc()
  await sleep(200)
  const before = process.cpuUsage()
  await sleep(ms)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}
