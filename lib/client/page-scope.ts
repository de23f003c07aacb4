import { createScope, type Operation, type Task } from 'effection'

/**
 * A scope the page's tasks run in, opened and closed by the page (a React effect's mount and
 * cleanup). Its tasks belong to it: closing halts them all. React's cleanup cannot wait, so
 * `close` starts the scope's teardown and returns; a teardown that fails (a task's `finally`
 * threw) is reported on the console, never dropped. This is the one place the browser's tasks
 * end without someone awaiting them: the boundary between React and Effection.
 */
export interface PageScope {
  /** Runs `operation` as a task of this scope. */
  run<T>(operation: () => Operation<T>): Task<T>
  /** Halts every task of the scope; a second call does nothing. */
  close(): void
}

export function openPageScope(): PageScope {
  const [scope, destroy] = createScope()
  let closed = false
  return {
    run: (operation) => scope.run(operation),
    close() {
      if (closed) return
      closed = true
      // A future: the teardown starts once it is awaited.
      destroy().then(undefined, (error: unknown) => console.error('A task of this page failed as the page closed it:', error))
    },
  }
}
