import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { freePort as freePortOn, killServer as kill, launchServer } from '../../../testing/server-process'

const require = createRequire(import.meta.url)

export interface EverythingHttpServer {
  port: number
  /** `http://127.0.0.1:<port>/mcp` (Streamable HTTP) or `http://127.0.0.1:<port>/sse` (HTTP+SSE) */
  url: string
  /** Kills the server (SIGKILL, as a crash would); resolves once it has exited. */
  stop(): Promise<void>
  /** Starts it again on the same port, with no sessions; resolves once it is listening. */
  restart(): Promise<void>
}

/**
 * `node <server-everything> streamableHttp` (or `sse`, the 2024-11-05 HTTP+SSE transport) on a
 * free port (it takes its port from `PORT`),
 * resolved once it says it is listening. Stop it with `stop()` when the tests end; one left
 * running is killed when the test process exits.
 */
export async function startEverythingHttpServer({ transport = 'streamableHttp' }: { transport?: 'streamableHttp' | 'sse' } = {}): Promise<EverythingHttpServer> {
  // The port is free when asked, but another process may take it before the server does:
  // the server then exits saying so, and a new port is tried.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      let child = await launch(port, transport)
      return {
        port,
        url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
        stop: () => kill(child),
        async restart() {
          await kill(child)
          child = await launch(port, transport)
        },
      }
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && /already in use/.test(error.message))) throw error
    }
  }
}

function launch(port: number, transport: 'streamableHttp' | 'sse'): Promise<ChildProcess> {
  return launchServer({
    name: `server-everything (${transport}) on port ${port}`,
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), transport],
    env: { ...process.env, PORT: String(port) },
    ready: (output) => output.includes(transport === 'sse' ? `running on port ${port}` : `listening on port ${port}`),
  })
}

/**
 * A port nothing listens on right now, on any address: server-everything listens on all of
 * them (it has no host setting), so a port free on 127.0.0.1 alone might not be free for it.
 */
export const freePort = (): Promise<number> => freePortOn()
