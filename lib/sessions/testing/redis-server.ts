import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

export interface RedisServer {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** Kills the server (SIGKILL, as a crash would); resolves once it has exited. */
  stop(): Promise<void>
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  restart(): Promise<void>
}

/** Every server started in this process, killed when the process exits whatever happens. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Starts a real `redis-server` on a free port of 127.0.0.1, with nothing saved to disk, and
 * resolves once it says it accepts connections. Stop it with `stop()` when the test ends
 * (`afterAll`); a server left running is killed when the test process exits.
 * Throws, saying to install it, when `redis-server` is not installed.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort()
  let child = await launch(port)
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await kill(child)
    },
    async restart() {
      await kill(child)
      child = await launch(port)
    },
  }
}

function launch(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    running.add(child)
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (/Ready to accept connections/.test(output)) {
        child.stdout!.off('data', onData)
        // Keep draining, so that a chatty server never blocks on a full pipe.
        child.stdout!.resume()
        resolve(child)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', (error: NodeJS.ErrnoException) => {
      running.delete(child)
      reject(
        error.code === 'ENOENT'
          ? new Error('redis-server is not installed: install it (apt-get install -y redis-server, or run scripts/ensure-redis.sh).')
          : error,
      )
    })
    child.once('exit', (code, signal) => {
      running.delete(child)
      reject(new Error(`redis-server on port ${port} exited (${signal ?? code}) before it was ready:\n${output}`))
    })
  })
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

/** A port that nothing on 127.0.0.1 listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
