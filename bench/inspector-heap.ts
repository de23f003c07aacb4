/**
 * Another Node process's heap, read through its inspector (`node --inspect=127.0.0.1:<port>`)
 * over the Chrome DevTools Protocol: the only way to force a full garbage collection in a
 * production server from outside, so that what is left is what it keeps, not garbage not yet
 * collected. Node 20 has `WebSocket` only behind `--experimental-websocket` (npm run bench
 * passes it), which spares the bench a dependency.
 */
export interface InspectorHeap {
  /** Two full collections (the second catches what finalizers of the first released), then the heap used, in bytes. */
  heapAfterGc(): Promise<number>
  close(): void
}

interface Reply {
  id: number
  result?: unknown
  error?: { message: string }
}

export async function connectInspectorHeap({ port }: { port: number }): Promise<InspectorHeap> {
  if (typeof WebSocket === 'undefined') throw new Error('No WebSocket: run with node --experimental-websocket (npm run bench does).')
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5_000) })).json()) as { webSocketDebuggerUrl: string }[]
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl)
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new Error(`cannot connect to the inspector on port ${port}`)), { once: true })
  })
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>()
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Partial<Reply>
    // Events (no id) are not asked for and not expected; replies settle their request.
    if (reply.id === undefined) return
    const request = pending.get(reply.id)
    pending.delete(reply.id)
    if (reply.error) request?.reject(new Error(reply.error.message))
    else request?.resolve(reply.result)
  })
  socket.addEventListener('close', () => {
    for (const request of pending.values()) request.reject(new Error('the inspector closed the connection'))
    pending.clear()
  })
  let nextId = 1
  const send = <T>(method: string): Promise<T> => {
    const id = nextId++
    // Not Promise.withResolvers: Node 20 has none.
    const reply = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }))
    socket.send(JSON.stringify({ id, method }))
    return reply as Promise<T>
  }
  return {
    async heapAfterGc() {
      await send('HeapProfiler.collectGarbage')
      await send('HeapProfiler.collectGarbage')
      return (await send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize
    },
    close: () => socket.close(),
  }
}
