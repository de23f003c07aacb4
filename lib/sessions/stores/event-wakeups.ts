import { withResolvers, type Operation } from 'effection'

/**
 * Readers of in-process event logs waiting for their stream's next append. A reader checks its
 * stream and, finding nothing, registers here in the same synchronous step (so no append can
 * fall between the two); `wake` resolves every reader of a stream once. A halted reader is
 * removed, so a stream nobody reads holds nothing.
 */
export function createEventWakeups() {
  const waiting = new Map<string, Set<() => void>>()
  return {
    /** Waits until `wake(stream)`; register before yielding anything else. */
    *until(stream: string): Operation<void> {
      const { operation, resolve } = withResolvers<void>()
      let readers = waiting.get(stream)
      if (!readers) waiting.set(stream, (readers = new Set()))
      readers.add(resolve)
      try {
        yield* operation
      } finally {
        readers.delete(resolve)
        if (readers.size === 0 && waiting.get(stream) === readers) waiting.delete(stream)
      }
    },
    wake(stream: string): void {
      const readers = waiting.get(stream)
      if (!readers) return
      waiting.delete(stream)
      for (const resolve of readers) resolve()
    },
  }
}
