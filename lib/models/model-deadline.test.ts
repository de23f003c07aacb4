import { createScope, withResolvers } from 'effection'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { withModelDeadline } from './model-deadline'

const [scope, destroy] = createScope()
afterAll(() => destroy())
const never = new Promise<never>(() => {})

describe('a model call with a deadline', () => {
  it('fails with the time-out error when the call waits on a model that ignores its signal', async () => {
    // On a clock the test moves: the call fails when its 50 ms are up, not a moment before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let signal: AbortSignal | undefined
      let outcome: string | undefined
      const call = scope.run(() =>
        withModelDeadline(50, () => new Error('no answer within 0.05 s'), function* (model) {
          signal = model.signal
          return yield* model.wait(never)
        }),
      )
      call.then(
        () => (outcome = 'answered'),
        (error: Error) => (outcome = error.message),
      )
      await vi.advanceTimersByTimeAsync(49)
      expect(outcome).toBeUndefined()
      expect(signal?.aborted).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(outcome).toBe('no answer within 0.05 s')
      expect(signal?.aborted).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('gives the time-out error, not the abort the model answers it with', async () => {
    const call = scope.run(() =>
      withModelDeadline(20, () => new Error('timed out'), function* ({ signal, wait }) {
        // A model that listens: it fails its request with an AbortError of its own.
        return yield* wait(new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))))
      }),
    )
    await expect(call).rejects.toThrow('timed out')
  })

  it('returns what the call returns, and leaves a finished call’s signal alone', async () => {
    let signal: AbortSignal | undefined
    const value = await scope.run(() =>
      withModelDeadline(1000, () => new Error('timed out'), function* (model) {
        signal = model.signal
        return yield* model.wait(Promise.resolve('answer'))
      }),
    )
    expect(value).toBe('answer')
    expect(signal?.aborted).toBe(false)
  })

  it('aborts the signal when the call is halted (Stop)', async () => {
    const waiting = withResolvers<AbortSignal>()
    const task = scope.run(() =>
      withModelDeadline(undefined, () => new Error('timed out'), function* (model) {
        waiting.resolve(model.signal)
        return yield* model.wait(never)
      }),
    )
    const signal = await scope.run(() => waiting.operation)
    await task.halt()
    expect(signal.aborted).toBe(true)
  })

  it('passes on a failure of the call, and aborts its signal', async () => {
    let signal: AbortSignal | undefined
    const call = scope.run(() =>
      withModelDeadline(1000, () => new Error('timed out'), function* (model) {
        signal = model.signal
        return yield* model.wait(Promise.reject(new Error('HTTP 500 from the model')))
      }),
    )
    await expect(call).rejects.toThrow('HTTP 500 from the model')
    expect(signal?.aborted).toBe(true)
  })
})
