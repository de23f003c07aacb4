import { createScope, suspend, type Operation, type Task } from 'effection'
import { runNow as runOperationNow } from '../engine/run-now'

/** A resource opened for the life of the process, and how to run its operations from a promise. */
export interface OpenForProcess<T> {
  value: T
  /** Runs an operation in the scope `value` lives in, as a task of it (`halt` stops it). */
  run<R>(operation: () => Operation<R>): Task<R>
  /**
   * `run`, without the task `run` makes when the operation finishes before its first `yield` —
   * an embedded store's point read, plain synchronous code that needs no scope (anything that
   * does, `ensure` or a resource, is a `yield`). An operation that yields goes on in the scope
   * from where it stopped, exactly as `yield*` would have run it. For reads on every request:
   * the task costs more CPU than the read (about 150 µs against 30 µs on a loaded 2-core machine).
   */
  runNow<R>(operation: () => Operation<R>): Promise<R>
}

/**
 * Makes `value` (a resource: a store, the chats) in a scope of its own that lasts as long as the
 * process — never destroyed, as the chat server's is not — for the server's instances, which
 * routes reach from promises. What `make` throws (a store that cannot be opened) rejects.
 */
export async function openForProcess<T>(make: () => Operation<T>): Promise<OpenForProcess<T>> {
  const [scope] = createScope()
  const value = await new Promise<T>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* make())
        yield* suspend()
      })
      .catch(reject)
  })
  const run = <R>(operation: () => Operation<R>): Task<R> => scope.run(operation)
  const runNow = <R>(operation: () => Operation<R>): Promise<R> => runOperationNow(operation, run)
  return { value, run, runNow }
}
