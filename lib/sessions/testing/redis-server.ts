import type { ChildProcess } from 'node:child_process'
import { freePort, killServer as kill, launchServer } from '../../testing/server-process'

export interface RedisServer {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** Kills the server (SIGKILL, as a crash would); resolves once it has exited. */
  stop(): Promise<void>
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  restart(): Promise<void>
  /** Freezes it (SIGSTOP), as a hung server: connections stay open and nothing answers. */
  pause(): void
  /** Lets a paused server run on (SIGCONT). */
  unpause(): void
}

/**
 * Starts a real `redis-server` on a free port of 127.0.0.1, with nothing saved to disk, and
 * resolves once it says it accepts connections. Stop it with `stop()` when the test ends
 * (`afterAll`); a server left running is killed when the test process exits.
 * Throws, saying to install it, when `redis-server` is not installed.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort({ host: '127.0.0.1' })
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
    pause() {
      child.kill('SIGSTOP')
    },
    unpause() {
      child.kill('SIGCONT')
    },
  }
}

function launch(port: number): Promise<ChildProcess> {
  return launchServer({
    name: `redis-server on port ${port}`,
    command: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
    ready: (output) => output.includes('Ready to accept connections'),
    notInstalled: 'redis-server is not installed: install it (apt-get install -y redis-server, or run scripts/ensure-redis.sh).',
  })
}
