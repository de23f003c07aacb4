import { resource, sleep, spawn, withResolvers, type Operation } from 'effection'

/** Keys that each come due a fixed time after they were added (`useDueQueue`). */
export interface DueQueue {
  /** Due `delayMs` from now; a key already here starts again, at the back. */
  add(key: string): void
  delete(key: string): void
}

/**
 * A loop that acts on each key when it comes due, `delayMs` after it was added: one timer, for
 * the oldest key, whatever the number of keys (a waiting session each). Nothing polls: with no
 * key the loop waits to be woken by the next `add`.
 *
 * Invariant: every key waits the same `delayMs`, so keys come due in the order they were added
 * and the oldest is always the next one due.
 */
export function useDueQueue({
  delayMs,
  now,
  waitingFor,
  onDue,
}: {
  delayMs: number
  now(): number
  /** What the loop waits for when it has no key, in words (it names the wait for the inspector). */
  waitingFor: string
  onDue(key: string): Operation<void>
}): Operation<DueQueue> {
  return resource(function* (provide) {
    /** When each key was added, oldest first. */
    const since = new Map<string, number>()
    let wake: (() => void) | undefined

    yield* spawn(function* () {
      while (true) {
        const oldest = since.entries().next()
        if (oldest.done) {
          const woken = withResolvers<void>(waitingFor)
          wake = woken.resolve
          yield* woken.operation
          continue
        }
        const [key, at] = oldest.value
        const wait = at + delayMs - now()
        if (wait > 0) {
          yield* sleep(wait)
          continue
        }
        since.delete(key)
        yield* onDue(key)
      }
    })

    yield* provide({
      add(key) {
        since.delete(key)
        since.set(key, now())
        wake?.()
        wake = undefined
      },
      delete(key) {
        since.delete(key)
      },
    })
  })
}
