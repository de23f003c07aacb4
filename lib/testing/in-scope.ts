import { createScope, suspend, type Operation, type Scope } from 'effection'

/** What `openInScope` made, the scope it lives in, and how to end both. */
export interface InScope<T> {
  value: T
  run<R>(operation: () => Operation<R>): Promise<R>
  destroy(): Promise<void>
}

/** Makes `value` (a resource) in a scope of its own that lasts until `destroy`, for tests and benches that drive it from promises. */
export async function openInScope<T>(make: () => Operation<T>): Promise<InScope<T>> {
  const [scope, destroy]: [Scope, () => Promise<void>] = createScope()
  const value = await new Promise<T>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* make())
        yield* suspend()
      })
      .catch(reject)
  })
  return { value, run: (operation) => scope.run(operation), destroy }
}
