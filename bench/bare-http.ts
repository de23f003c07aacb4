import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('./bare-http-server.mjs', import.meta.url))

/** The bare `node:http` server: where it listens and its process id (for /proc). */
export interface BareHttpServer {
  base: string
  pid: number
  /** Stops it; resolves once it has exited. */
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Starts `bare-http-server.mjs` on 127.0.0.1:`port` (same node, no flags) and resolves once it
 * listens. It answers any path, so `timeTrivialRoute` measures it exactly as it measures Next's.
 */
export async function startBareHttpServer({ port }: { port: number }): Promise<BareHttpServer> {
  const server = spawn(process.execPath, [SCRIPT], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] })
  running.add(server)
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  void exited.then(() => running.delete(server))
  const listening = once(server.stdout!, 'data')
  await Promise.race([listening, exited.then(() => Promise.reject(new Error(`the bare node:http server on port ${port} exited before listening`)))])
  server.stdout!.resume()
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid!,
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return
      server.kill('SIGTERM')
      const killer = setTimeout(() => server.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
    },
  }
}
