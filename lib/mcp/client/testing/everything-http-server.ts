import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { freePort as freePortOn, killServer as kill, launchServer } from '../../../testing/server-process'

const require = createRequire(import.meta.url)

export interface EverythingHttpServer {
  port: number
  /** `http://127.0.0.1:<port>/mcp` */
  url: string
  /** Kills the server (SIGKILL, as a crash would); resolves once it has exited. */
  stop(): Promise<void>
  /** Starts it again on the same port, with no sessions; resolves once it is listening. */
  restart(): Promise<void>
}

/**
 * `node <server-everything> streamableHttp` on a free port (it takes its port from `PORT`),
 * resolved once it says it is listening. Stop it with `stop()` when the tests end; one left
 * running is killed when the test process exits.
 */
export async function startEverythingHttpServer(): Promise<EverythingHttpServer> {
  // The port is free when asked, but another process may take it before the server does:
  // the server then exits saying so, and a new port is tried.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      let child = await launch(port)
      return {
        port,
        url: `http://127.0.0.1:${port}/mcp`,
        stop: () => kill(child),
        async restart() {
          await kill(child)
          child = await launch(port)
        },
      }
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && /already in use/.test(error.message))) throw error
    }
  }
}

function launch(port: number): Promise<ChildProcess> {
  return launchServer({
    name: `server-everything (streamableHttp) on port ${port}`,
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    env: { ...process.env, PORT: String(port) },
    ready: (output) => output.includes(`listening on port ${port}`),
  })
}

/**
 * A port nothing listens on right now, on any address: server-everything listens on all of
 * them (it has no host setting), so a port free on 127.0.0.1 alone might not be free for it.
 */
export const freePort = (): Promise<number> => freePortOn()
