import { createScope, suspend, type Operation } from 'effection'

/** A resource opened for the life of the process, and how to run its operations from a promise. */
export interface OpenForProcess<T> {
  value: T
  /** Runs an operation in the scope `value` lives in. */
  run<R>(operation: () => Operation<R>): Promise<R>
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
  return { value, run: (operation) => scope.run(operation) }
}
