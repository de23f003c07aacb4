import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/**
 * Real servers that tests start as child processes (redis-server, server-everything …): on a
 * free port, ready when they say so, and killed when the test process exits, whatever happens.
 */

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** What a server's output keeps: enough of its end to say why it failed. */
const OUTPUT_TAIL = 4_000

export interface LaunchOptions {
  /** Named in errors, e.g. `redis-server on port 6380`. */
  name: string
  command: string
  args: readonly string[]
  env?: NodeJS.ProcessEnv
  /** Whether what the server has written so far (stdout and stderr) says it is ready. */
  ready(output: string): boolean
  /** The error when `command` is not installed. */
  notInstalled?: string
}

/**
 * Starts the server and resolves once its output says it is ready; rejects with its output if
 * it exits first. Its output is read to the end, so a chatty server never blocks on a full pipe.
 */
export function launchServer({ name, command, args, env, ready, notInstalled }: LaunchOptions): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let output = ''
    let started = false
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL)
      if (!started && ready(output)) {
        started = true
        resolve(child)
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('error', (error: NodeJS.ErrnoException) => {
      running.delete(child)
      reject(error.code === 'ENOENT' && notInstalled ? new Error(notInstalled) : error)
    })
    child.once('exit', (code, signal) => {
      running.delete(child)
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${output}`))
    })
  })
}

/** Kills the server (SIGKILL, as a crash would); resolves once it has exited. */
export async function killServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

/**
 * A port nothing listens on right now, on `host`, or on every address when none is given (for
 * a server that listens on all of them).
 */
export function freePort({ host }: { host?: string } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    const listening = () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    }
    if (host) server.listen(0, host, listening)
    else server.listen(0, listening)
  })
}
