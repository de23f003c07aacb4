import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './app-process'

export interface RedisProcess {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** SIGKILL, as a crash would; resolves once the process has exited. */
  stop(): Promise<void>
  /** Starts it again on the same port with the data it had (AOF, fsync on every write). */
  start(): Promise<void>
  /** Stops it and removes its data. */
  dispose(): Promise<void>
}

const running = new Set<ChildProcess>()
const dirs = new Set<string>()
let cleanupInstalled = false

/**
 * A real `redis-server` on a free port of 127.0.0.1 that keeps its data across a crash: every
 * write is appended and fsynced before Redis answers, so `stop()` (SIGKILL) then `start()`
 * brings back every session, as a production Redis with an append-only file would.
 * (`lib/sessions/testing/redis-server.ts` restarts empty, which loses the sessions.)
 */
export async function startRedis(): Promise<RedisProcess> {
  if (!cleanupInstalled) {
    cleanupInstalled = true
    process.on('exit', () => {
      for (const child of running) child.kill('SIGKILL')
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })
  }
  const port = await freePort()
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-data-'))
  dirs.add(dir)
  let child = await launch(port, dir)
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    async start() {
      await stop()
      child = await launch(port, dir)
    },
    async dispose() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
      dirs.delete(dir)
    },
  }
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
        ...['--appendonly', 'yes', '--appendfsync', 'always', '--loglevel', 'notice'],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    running.add(child)
    let output = ''
    let ready = false
    child.stdout!.on('data', (chunk: Buffer) => {
      if (ready) return // keep draining, so that the pipe never fills
      output += chunk.toString()
      if (/Ready to accept connections/.test(output)) {
        ready = true
        resolve(child)
      }
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', (error: NodeJS.ErrnoException) => {
      running.delete(child)
      reject(error.code === 'ENOENT' ? new Error('redis-server is not installed (run scripts/ensure-redis.sh).') : error)
    })
    child.once('exit', (code, signal) => {
      running.delete(child)
      if (!ready) reject(new Error(`redis-server on port ${port} exited (${signal ?? code}) before it was ready:\n${output}`))
    })
  })
}
