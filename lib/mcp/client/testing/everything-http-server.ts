import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'

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

/** Every server started in this process, killed when the process exits whatever happens. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

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
  const main = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let output = ''
    // It logs every request on stdout: keep draining it, so that it never blocks on a full pipe.
    child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)))
    const onStderr = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000)
      if (output.includes(`listening on port ${port}`)) {
        child.stderr!.off('data', onStderr)
        child.stderr!.resume()
        resolve(child)
      }
    }
    child.stderr!.on('data', onStderr)
    child.once('error', (error) => {
      running.delete(child)
      reject(error)
    })
    child.once('exit', (code, signal) => {
      running.delete(child)
      reject(new Error(`server-everything (streamableHttp) on port ${port} exited (${signal ?? code}) before it was listening:\n${output}`))
    })
  })
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

/**
 * A port nothing listens on right now, on any address: server-everything listens on all of
 * them (it has no host setting), so a port free on 127.0.0.1 alone might not be free for it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
