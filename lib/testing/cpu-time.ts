/**
 * The CPU time this process spends on `work`, in ms, the least of `runs` runs: what a check that
 * a parse is linear measures. Unlike the wall clock it does not grow while other processes hold
 * the machine's cores (CI on 2 cores, other suites beside this one), while a quadratic parse of a
 * few hundred KB costs seconds of it on every run.
 */
export function leastCpuMsOf(work: () => void, runs = 3): number {
  let least = Infinity
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage()
    work()
    const { user, system } = process.cpuUsage(before)
    least = Math.min(least, (user + system) / 1000)
  }
  return least
}
