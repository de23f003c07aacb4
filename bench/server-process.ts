import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

const SERVER = '.next/standalone/server.js'

/** Every server started here, killed when the bench exits whatever happens. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * The bench's whole load comes from 127.0.0.1, far more than one person's: the limits per
 * client address are raised out of its way (what it measures is the cost of a request).
 */
const BENCH_LIMITS = {
  RATE_LIMIT_BURST: '100000',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_GLOBAL_BURST: '100000',
  RATE_LIMIT_GLOBAL_PER_SECOND: '100000',
  MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '100000',
  TOOL_STARTS_BURST: '100000',
  TOOL_STARTS_PER_MINUTE: '6000000',
}

/** The production server, started by the bench: where it listens and its process id (for /proc). */
export interface ServerProcess {
  base: string
  pid: number
  /** Stops it (SIGTERM, then SIGKILL after 5 s); resolves once it has exited. */
  stop(): Promise<void>
}

/** Builds the production server when there is none yet. */
export function ensureBuild(): void {
  if (existsSync(SERVER)) return
  console.log('No production build yet: building...')
  if (spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('build failed')
}

/**
 * Starts the production build on 127.0.0.1:`port` with the offline model and no artificial
 * delay, plus `env`, and resolves once `GET /api/health` answers. `nodeArgs` go to node
 * (e.g. `--cpu-prof`).
 */
export async function startServer({ port, env, nodeArgs = [] }: { port: number; env: Record<string, string>; nodeArgs?: string[] }): Promise<ServerProcess> {
  ensureBuild()
  const base = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [...nodeArgs, SERVER], {
    env: { ...process.env, PORT: String(port), HOSTNAME: '127.0.0.1', OFFLINE_MODEL_DELAY_MS: '0', OPENAI_API_KEY: '', NODE_ENV: 'production', ...BENCH_LIMITS, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  running.add(server)
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  void exited.then(() => running.delete(server))
  const stop = () => stopProcess(server, exited)
  for (let attempt = 0; attempt < 150; attempt++) {
    if (server.exitCode !== null || server.signalCode !== null) break
    try {
      if ((await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok) return { base, pid: server.pid!, stop }
    } catch {
      // Not listening yet.
    }
    await sleep(100)
  }
  await stop()
  throw new Error(`the server on port ${port} did not start (exit ${server.signalCode ?? server.exitCode ?? 'none: no answer in 15 s'})`)
}

async function stopProcess(server: ChildProcess, exited: Promise<void>): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return
  server.kill('SIGTERM')
  const killer = setTimeout(() => server.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(killer)
}
