import { createScope, sleep, suspend, withResolvers } from 'effection'
import { afterEach, describe, expect, it } from 'vitest'
import { createTurnRunner, type TurnRunner } from './turn-runner'

const destroys: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const destroy of destroys.splice(0)) await destroy()
})

/** A promise and what resolves it, for a turn to say it has got somewhere. */
function signal() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

function setUp() {
  const [scope, destroy] = createScope()
  const runner = createTurnRunner(scope)
  destroys.push(async () => {
    runner.close()
    await destroy()
  })
  return { runner, close: () => (runner.close(), destroy()) }
}

/**
 * Starts a turn that waits until it is stopped, with a clean-up that itself waits (Effection
 * then resumes the turn's caller as if it had returned: effection#1190). Resolves once it waits.
 */
async function startStoppable(runner: TurnRunner, cleanUp?: () => void) {
  const started = signal()
  const cleanedUp: string[] = []
  const turn = runner.run(function* () {
    try {
      started.resolve()
      yield* suspend()
    } finally {
      yield* sleep(1)
      cleanedUp.push('finally')
      cleanUp?.()
    }
  })
  const outcome = turn.then(() => 'resolved', (error: Error) => error.message)
  await started.promise
  return { turn, outcome, cleanedUp }
}

/**
 * Stops a turn started with `startStoppable`: its waiting clean-up has run, it rejects as
 * stopped, and a new turn still runs (on a new runner, not the stopped one).
 */
async function expectStopped(runner: TurnRunner) {
  const { turn, outcome, cleanedUp } = await startStoppable(runner)
  await turn.halt()
  expect(cleanedUp).toEqual(['finally'])
  expect(await outcome).toBe('The turn was stopped.')
  expect(await runner.run(returning('after'))).toBe('after')
}

/** A turn that returns `value` at once. */
const returning = <T>(value: T) =>
  function* () {
    return value
  }

describe('turn runner', () => {
  it('runs turns one after another, each settling with what it returned or threw', async () => {
    const { runner } = setUp()
    expect(await runner.run(function* () {
      yield* sleep(1)
      return 'first'
    })).toBe('first')
    await expect(runner.run(function* (): Generator<never, never> {
      throw new Error('second failed')
    })).rejects.toThrow('second failed')
    // The runner that ran a failed turn runs the next one.
    expect(await runner.run(returning('third'))).toBe('third')
  })

  it('runs turns at the same time in runners of their own', async () => {
    const { runner } = setUp()
    // Each waits for the other: on one runner, one after the other, neither would end.
    const a = withResolvers<void>()
    const b = withResolvers<void>()
    const first = runner.run(function* () {
      a.resolve()
      yield* b.operation
      return 'a'
    })
    const second = runner.run(function* () {
      b.resolve()
      yield* a.operation
      return 'b'
    })
    expect(await Promise.all([first, second])).toEqual(['a', 'b'])
  })

  it('stops a turn: its clean-up runs, even one that waits, and the turn rejects', async () => {
    const { runner } = setUp()
    await expectStopped(runner)
  })

  it('does not stop another turn when a turn that has ended is halted', async () => {
    const { runner } = setUp()
    const ended = runner.run(returning('done'))
    expect(await ended).toBe('done')
    // The next turn runs on the runner the first one used.
    const release = withResolvers<void>()
    const next = runner.run(function* () {
      yield* release.operation
      return 'next'
    })
    await ended.halt()
    release.resolve()
    expect(await next).toBe('next')
  })

  it('stops a turn on a runner that ran others before it, and the runners go on', async () => {
    const { runner } = setUp()
    for (let index = 0; index < 3; index++) {
      expect(await runner.run(function* () {
        yield* sleep(0)
        return index
      })).toBe(index)
    }
    await expectStopped(runner)
  })

  it('passes on what a stopped turn’s clean-up threw', async () => {
    const { runner } = setUp()
    const { turn } = await startStoppable(runner, () => {
      throw new Error('clean-up failed')
    })
    turn.catch(() => {})
    await expect(turn.halt()).rejects.toThrow('clean-up failed')
  })

  it('rejects the turns still running when the server closes, and closes', async () => {
    const { runner, close } = setUp()
    const { outcome, cleanedUp } = await startStoppable(runner)
    await close()
    expect(cleanedUp).toEqual(['finally'])
    expect(await outcome).toBe('The turn was stopped.')
  })
})
