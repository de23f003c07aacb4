import type { Operation } from 'effection'

/**
 * Runs `operation` at once, in the caller's stack, as far as its first `yield`: an operation that
 * finishes before yielding (an embedded store's write: plain synchronous code that needs no
 * scope — anything that does, `ensure` or a resource, is a `yield`) settles without a task. One
 * that yields is handed to `rest`, which goes on from where it stopped, exactly as `yield*` would
 * have run it (e.g. in a scope, or on one of the turn runner's tasks). For work on every request
 * or every batch of a turn: a task costs more CPU than such a write, and while many turns stream
 * at once no runner is free, so each would make one.
 */
export function runNow<R>(operation: () => Operation<R>, rest: (operation: () => Operation<R>) => Promise<R>): Promise<R> {
  let iterator: Iterator<unknown, R, unknown>
  let first: IteratorResult<unknown, R>
  try {
    iterator = operation()[Symbol.iterator]() as Iterator<unknown, R, unknown>
    first = iterator.next()
  } catch (error) {
    return Promise.reject(error)
  }
  if (first.done) return Promise.resolve(first.value)
  // The rest by delegation: its first step is the one already taken.
  let taken = false
  const remaining = {
    [Symbol.iterator]: () => ({
      next: (value?: unknown) => (taken ? iterator.next(value) : ((taken = true), first)),
      throw: (error?: unknown) => iterator.throw!(error),
      return: (value?: R) => iterator.return!(value as R),
    }),
  }
  return rest(function* () {
    return (yield* remaining as unknown as Operation<R>) as R
  })
}
