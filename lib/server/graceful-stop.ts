const globalForStop = globalThis as typeof globalThis & { gracefulStop?: { began: boolean } }

/**
 * Whether a graceful stop has begun: from the first SIGTERM (systemd, Kubernetes, a rolling
 * deploy) or SIGINT (Ctrl-C) on. The readiness route answers 503 from then on, so that a load
 * balancer sends no new work here while the requests already here finish (`scripts/start.mjs`
 * keeps accepting connections for `SHUTDOWN_DELAY_MS` more, then Next closes the listener and
 * exits once the last response has ended).
 *
 * Watched from the start (`instrumentation-node.ts`), so that a signal before the first request
 * to the readiness route counts; kept on globalThis, as the routes run from another bundle.
 */
export function watchForStop(): void {
  if (globalForStop.gracefulStop) return
  const stop = { began: false }
  globalForStop.gracefulStop = stop
  const begin = () => {
    stop.began = true
  }
  process.once('SIGTERM', begin)
  process.once('SIGINT', begin)
}

/** Whether the process is stopping (`watchForStop`). */
export function stopHasBegun(): boolean {
  return globalForStop.gracefulStop?.began ?? false
}
