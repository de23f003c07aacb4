import { scoped, type Operation, type Scope } from 'effection'
import type { ChatEvent } from '../protocol/events'

/**
 * Run an operation in `scope` and stream the events it emits as NDJSON. Cancelling the
 * stream (the client went away) or aborting `signal` halts the operation.
 */
export function createNdjsonStream({
  scope,
  signal,
  run,
}: {
  scope: Scope
  signal?: AbortSignal
  run(emit: (event: ChatEvent) => void): Operation<void>
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let halt: (() => void) | undefined
  // False once the client has gone: the turn's clean-up may still report, to nobody.
  let open = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = (event: ChatEvent) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
      }
      const task = scope.run(function* () {
        try {
          // scoped: the turn's own clean-up (ending its tools' work) finishes before the stream closes.
          yield* scoped(() => run(emit))
        } finally {
          open = false
          try {
            controller.close()
          } catch {
            // Already closed by a cancel.
          }
        }
      })
      halt = () => {
        open = false
        void task.halt()
      }
      task.catch((error: unknown) => {
        // run() reports its own failures as events; reaching here is a bug, not bad input.
        console.error('chat turn crashed', error)
      })
      if (signal?.aborted) halt()
      else signal?.addEventListener('abort', halt, { once: true })
    },
    cancel() {
      halt?.()
    },
  })
}
