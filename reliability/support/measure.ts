import { readFileSync } from 'node:fs'

/** Resident memory of a process in MiB, from /proc/<pid>/status (Linux): nothing new exposed by the server. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kiB = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]
  if (!kiB) throw new Error(`No VmRSS in /proc/${pid}/status`)
  return Number(kiB) / 1024
}

/**
 * The parts of resident memory, in MiB: `anonymous` is the process's own (heap, stacks,
 * buffers); `file` is pages of mapped files, such as SQLite's write-ahead-log index (sessions.db-shm), which the
 * kernel shares with its page cache and takes back when memory is short.
 */
export function rssPartsMiB(pid: number): { anonymous: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const read = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1] ?? NaN) / 1024
  return { anonymous: read('RssAnon'), file: read('RssFile') }
}

/** Whether the process is still there (not exited, not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

/** How long one `GET /api/health` takes, in ms, and what it answered. */
export async function healthLatency(baseURL: string): Promise<{ ms: number; status: number }> {
  const started = performance.now()
  const response = await fetch(`${baseURL}/api/health`)
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

/** The slowest of `count` health requests on a server doing nothing else: what the machine itself costs. */
export async function idleHealthMs(baseURL: string, count = 10): Promise<number> {
  let slowest = 0
  for (let index = 0; index < count; index++) slowest = Math.max(slowest, (await healthLatency(baseURL)).ms)
  return slowest
}

/**
 * Probes `/api/health` one request after another until `until` settles, and reports the
 * slowest answer: how long the server's event loop was blocked from a client's point of view.
 */
export async function probeHealthWhile<T>(baseURL: string, until: Promise<T>): Promise<{ result: T; slowestMs: number; probes: number; failures: number }> {
  let done = false
  let slowestMs = 0
  let probes = 0
  let failures = 0
  const settled = until.finally(() => {
    done = true
  })
  const prober = (async () => {
    while (!done) {
      const started = performance.now()
      try {
        const { status } = await healthLatency(baseURL)
        if (status !== 200) failures++
      } catch {
        failures++
      }
      probes++
      slowestMs = Math.max(slowestMs, performance.now() - started)
    }
  })()
  // The probe in flight when `until` settles counts too: it is the one a blocked loop delays.
  const [outcome] = await Promise.allSettled([settled, prober])
  if (outcome.status === 'rejected') throw outcome.reason
  return { result: outcome.value, slowestMs, probes, failures }
}

/** The sessions the server holds (needs `EXPOSE_SESSIONS=1`, which startApp sets). */
export async function listSessions(baseURL: string): Promise<Array<{ id: string; status?: string }>> {
  const response = await fetch(`${baseURL}/api/sessions`)
  if (response.status !== 200) throw new Error(`GET /api/sessions answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { sessions: Array<{ id: string; status?: string }> }).sessions
}

/** A client address of its own for the nth simulated browser, sent as X-Forwarded-For (the server trusts its proxy). */
export function addressOf(index: number): string {
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`
}

/** One line per figure, easy to find in the output. */
export function report(part: string, figures: Record<string, unknown>): void {
  const text = Object.entries(figures)
    .map(([name, value]) => `${name}: ${typeof value === 'number' ? Math.round(value * 10) / 10 : typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ')
  console.log(`[reliability] ${part} — ${text}`)
}
