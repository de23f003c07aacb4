const running = new Set<number>()
let installed = false

/**
 * Remember a server's child process until its connection closes it. Closing is asynchronous
 * and the app may be stopped by `process.exit` (Next's standalone server does that on SIGTERM
 * and SIGINT) before it happens: the `exit` hook then ends the children that are left, so
 * that no server outlives the app.
 */
export function trackChildProcess(pid: number): () => void {
  if (!installed) {
    installed = true
    process.on('exit', () => {
      for (const child of running) {
        try {
          process.kill(child, 'SIGTERM')
        } catch {
          // Already gone.
        }
      }
    })
  }
  running.add(pid)
  return () => running.delete(pid)
}
