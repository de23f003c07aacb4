import { withResolvers, type Operation, type Scope, type Task } from 'effection'

/** A turn handed to a runner: settles with what its operation returned or threw. */
export interface TurnRun<T> extends Promise<T> {
  /**
   * Stops the turn: its clean-up (`finally` blocks) runs, then it rejects. Resolves once it
   * has stopped; rejects with what the clean-up threw, if it threw. Does nothing to a turn that
   * has already ended.
   */
  halt(): Promise<void>
}

/** Runs the chat server's turns. */
export interface TurnRunner {
  run<T>(operation: () => Operation<T>): TurnRun<T>
  /** Called before the server's scope is destroyed: no runner takes another turn. */
  close(): void
}

interface Job {
  operation: () => Operation<unknown>
  resolve(value: unknown): void
  reject(error: unknown): void
}

interface Runner {
  task: Task<void>
  /** The turn it runs, or has been given and will run next. */
  current?: Job
  /** A turn it runs is being stopped: it ends with that turn. */
  stopping: boolean
  /** What a stopped turn's clean-up threw. */
  haltError?: unknown
  /** Hands an idle runner its next turn. */
  give(job: Job): void
}

/**
 * Runs each turn in one of a few long-lived tasks of `scope`, rather than in a task of its own.
 *
 * An Effection task costs about 50 µs of CPU to make and tear down (its scope, context, task
 * group and futures; measured with Effection 4.1 on Node 20), and it lies on the path of every
 * chat request: made before the request is read, torn down before its response is handed to
 * Next. A runner is such a task that runs a turn, waits for the next, and runs that, so a
 * request pays for a task only when no runner is free. Stopping a turn halts its runner: the
 * turn's clean-up runs as it would in a task of its own, and that runner is not used again.
 *
 * Invariant: a runner runs one turn at a time, and a turn leaves nothing in its runner's scope.
 * The engine's turns spawn nothing into the scope they run in (sessions run in the server's
 * scope; `all` and model calls end what they start before they return) and set no context.
 * At most `keepIdle` runners wait between turns; the others end with their turn.
 */
export function createTurnRunner(scope: Scope, { keepIdle = 16 }: { keepIdle?: number } = {}): TurnRunner {
  const idle: Runner[] = []
  let closed = false

  function startRunner(first: Job): Runner {
    let next = withResolvers<Job>()
    const runner: Runner = {
      task: undefined as unknown as Task<void>,
      current: first,
      stopping: false,
      give(job) {
        next.resolve(job)
      },
    }
    runner.task = scope.run(function* () {
      try {
        for (;;) {
          const job = runner.current!
          let outcome: { ok: true; value: unknown } | { ok: false; error: unknown }
          try {
            outcome = { ok: true, value: yield* job.operation() }
          } catch (error) {
            outcome = { ok: false, error }
          }
          // A halted turn whose clean-up waited on something comes back here as if it had
          // returned (Effection does not carry a halt past such a `finally`: effection#1190), so
          // the runner must not go on to wait for another turn: it would never finish halting.
          if (runner.stopping || closed) {
            if (!outcome.ok) runner.haltError = outcome.error
            return
          }
          runner.current = undefined
          if (outcome.ok) job.resolve(outcome.value)
          else job.reject(outcome.error)
          if (idle.length >= keepIdle) return
          next = withResolvers<Job>()
          idle.push(runner)
          runner.current = yield* next.operation
        }
      } finally {
        // Stopped, or the server closed: it takes no other turn.
        const index = idle.indexOf(runner)
        if (index >= 0) idle.splice(index, 1)
      }
    })
    // A turn its runner ends with (stopped, or the server closed) rejects once the runner has
    // been torn down, what the turn `ensure`d included, as a task of its own would have settled.
    const ended = () => runner.current?.reject(new Error('The turn was stopped.'))
    runner.task.then(ended, ended)
    return runner
  }

  return {
    run<T>(operation: () => Operation<T>): TurnRun<T> {
      let job!: Job
      const settled = new Promise<T>((resolve, reject) => {
        job = { operation, resolve: resolve as (value: unknown) => void, reject }
      })
      const free = closed ? undefined : idle.pop()
      if (free) {
        free.current = job
        free.give(job)
      }
      const runner = free ?? startRunner(job)
      return Object.assign(settled, {
        async halt() {
          // A turn that has ended is not stopped: its runner may be running another one.
          if (runner.current !== job) return
          runner.stopping = true
          await runner.task.halt()
          if (runner.haltError !== undefined) throw runner.haltError
        },
      })
    },
    close() {
      closed = true
    },
  }
}
