// npm run bench: booking latency over HTTP against the production build (offline model,
// no artificial delay), 200 concurrent bookings, then heap and CPU of waiting sessions and
// the heap left after many bookings, measured in-process with the same engine.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { bookOverHttp, type RequestKind, type Timed } from './booking-client'
import { measureRetainedHeap, measureWaitingSessions } from './in-process'
import { percentile, summary } from './stats'

const PORT = Number(process.env.BENCH_PORT ?? 3290)
const BASE = `http://127.0.0.1:${PORT}`
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 300)
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 200)
const WAITING = Number(process.env.BENCH_WAITING ?? 1_000)
const LEAK_BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 10_000)

async function startServer() {
  if (!existsSync('.next/standalone/server.js')) {
    console.log('No production build yet: building...')
    if (spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('build failed')
  }
  const server = spawn(process.execPath, ['.next/standalone/server.js'], {
    env: { ...process.env, PORT: String(PORT), HOSTNAME: '127.0.0.1', OFFLINE_MODEL_DELAY_MS: '0', OPENAI_API_KEY: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return server
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  server.kill()
  throw new Error('the server did not start')
}

async function timeHealth(): Promise<number> {
  const started = performance.now()
  await (await fetch(`${BASE}/api/health`)).text()
  return performance.now() - started
}

async function httpBenchmarks() {
  const server = await startServer()
  try {
    for (let index = 0; index < 50; index++) {
      await bookOverHttp(BASE)
      await timeHealth()
    }
    const timings: Timed[] = []
    const floor: number[] = []
    for (let index = 0; index < SEQUENTIAL; index++) {
      timings.push(...(await bookOverHttp(BASE)))
      floor.push(await timeHealth(), await timeHealth(), await timeHealth())
    }
    const byKind = (kind: RequestKind) => timings.filter((timing) => timing.kind === kind).map((timing) => timing.ms)

    const started = performance.now()
    const results = await Promise.allSettled(Array.from({ length: CONCURRENT }, () => bookOverHttp(BASE)))
    const concurrentSeconds = (performance.now() - started) / 1000
    const failures = results.filter((result) => result.status === 'rejected')
    return {
      floor,
      start: byKind('start'),
      resume: byKind('resume'),
      finish: byKind('finish'),
      concurrent: { bookings: CONCURRENT, failures: failures.length, seconds: concurrentSeconds, firstFailure: failures[0] && String((failures[0] as PromiseRejectedResult).reason) },
    }
  } finally {
    server.kill()
  }
}

const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES TARGET')

const http = await httpBenchmarks()
console.log('\nServer time per request over loopback (production build, offline model, no delay):')
console.log(`  trivial route (GET /api/health)       ${summary(http.floor)}`)
console.log(`  start  (message in, FlightList out)   ${summary(http.start)}`)
console.log(`  resume (flight in, SeatPicker out)    ${summary(http.resume)}`)
console.log(`  finish (seat in, ticket + summary)    ${summary(http.finish)}`)
const ratio = percentile(http.resume, 50) / percentile(http.floor, 50)
console.log(`  resume p50 / trivial p50 = ${ratio.toFixed(2)}x (target <= 1.5x): ${verdict(ratio <= 1.5)}`)
console.log(
  `\n${http.concurrent.bookings} bookings at once: ${http.concurrent.failures} failed, ${http.concurrent.seconds.toFixed(2)} s: ${verdict(http.concurrent.failures === 0)}`,
)
if (http.concurrent.firstFailure) console.log(`  first failure: ${http.concurrent.firstFailure}`)

const waiting = await measureWaitingSessions(WAITING)
console.log(`\n${waiting.sessions} waiting sessions:`)
console.log(`  heap per waiting session: ${waiting.heapPerSessionKB.toFixed(2)} KB (target <= 20 KB): ${verdict(waiting.heapPerSessionKB <= 20)}`)
console.log(
  `  CPU while idle over ${waiting.idleMs / 1000} s: ${waiting.waitingCpuMs.toFixed(1)} ms with them waiting, ${waiting.baselineCpuMs.toFixed(1)} ms with none`,
)

const leak = await measureRetainedHeap(LEAK_BOOKINGS)
console.log(`\n${leak.bookings} bookings in-process (${leak.seconds.toFixed(1)} s), ${leak.activeAfter} sessions left:`)
console.log(
  `  heap ${leak.heapBeforeMB.toFixed(1)} MB -> ${leak.heapAfterMB.toFixed(1)} MB, ${leak.retainedPerBookingBytes.toFixed(1)} bytes kept per booking: ${verdict(leak.retainedPerBookingBytes < 100 && leak.activeAfter === 0)}`,
)

mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/latest.json', JSON.stringify({ at: new Date().toISOString(), http, ratio, waiting, leak }, null, 2))
