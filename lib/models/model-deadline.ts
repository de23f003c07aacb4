import { until, type Operation } from 'effection'

/** What a model call is given to wait with. */
export interface ModelCall {
  /** Aborted when the call times out or is halted: give it to the model, so that its request stops too. */
  signal: AbortSignal
  /**
   * Waits for `promise`. Every promise the call waits on goes through here, so that a time-out
   * ends the wait at once, even with a model that does not listen to `signal`.
   */
  wait<T>(promise: PromiseLike<T>): Operation<T>
}

/**
 * Runs a model call, failing with `timeoutError()` if it has not finished within `timeoutMs`
 * (undefined: no limit): its signal is then aborted and what it waits on fails at once. Halted
 * or failed, the call's signal is aborted too; a call that finished is left alone (an abort
 * makes a `DOMException`, with its stack).
 *
 * No task is made for it — a timer, and one promise that fails when the signal is aborted —
 * where a `race` against a `sleep` made three (about 0.2 ms of CPU a call, measured).
 */
export function* withModelDeadline<T>(
  timeoutMs: number | undefined,
  timeoutError: () => Error,
  call: (model: ModelCall) => Operation<T>,
): Operation<T> {
  const controller = new AbortController()
  const { signal } = controller
  let timedOut: Error | undefined
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = timeoutError()
          controller.abort(timedOut)
        }, timeoutMs)
  let stopped: Promise<never> | undefined
  const wait = <V>(promise: PromiseLike<V>): Operation<V> => {
    if (!stopped) {
      // Every wait races it (so it always has a handler): aborted when nobody waits (halted, or after the call), it settles nothing.
      stopped = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason)
        else signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
    }
    return until(Promise.race([promise, stopped]))
  }
  let finished = false
  try {
    const value = yield* call({ signal, wait })
    finished = true
    return value
  } catch (error) {
    throw timedOut ?? error
  } finally {
    clearTimeout(timer)
    if (!finished) controller.abort()
  }
}

/** A deadline as people read it in a time-out message: `120 s`, `1.5 s`. */
export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
