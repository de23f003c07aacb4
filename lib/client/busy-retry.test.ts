import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BUSY_RETRY_LIMIT_MS, RetryAbortedError, retryWhileBusy, secondsUntil, untilNextSecond, type BusyRetry } from './busy-retry'
import { ChatHttpError } from './chat-request'

const busy = (seconds?: number) => new ChatHttpError('The server is busy.', 429, 'rate_limited', seconds)

/** An attempt that fails with each of `failures` in turn, then answers 'accepted'. */
function scripted(failures: unknown[]) {
  const attempts: number[] = []
  const attempt = vi.fn(async () => {
    attempts.push(Date.now())
    const failure = failures.shift()
    if (failure !== undefined) throw failure
    return 'accepted'
  })
  return { attempt, attempts }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('retryWhileBusy', () => {
  it('sends again after the seconds of Retry-After, not before, and says when meanwhile', async () => {
    const { attempt, attempts } = scripted([busy(2)])
    const waits: Array<BusyRetry | undefined> = []
    const result = retryWhileBusy(attempt, { signal: new AbortController().signal, onWait: (wait) => waits.push(wait) })
    await vi.advanceTimersByTimeAsync(1999)
    expect(attempts).toEqual([0])
    expect(waits).toEqual([{ retryAt: 2000 }])
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).resolves.toBe('accepted')
    expect(attempts).toEqual([0, 2000])
    expect(waits).toEqual([{ retryAt: 2000 }, undefined])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('waits at least a second, whatever Retry-After says', async () => {
    const { attempt, attempts } = scripted([busy(0)])
    const result = retryWhileBusy(attempt, { signal: new AbortController().signal, onWait: () => {} })
    await vi.advanceTimersByTimeAsync(1000)
    await expect(result).resolves.toBe('accepted')
    expect(attempts).toEqual([0, 1000])
  })

  it('gives up and throws the refusal once a retry would go later than the bound after the first refusal', async () => {
    const { attempt, attempts } = scripted(Array.from({ length: 100 }, () => busy(1)))
    const result = retryWhileBusy(attempt, { signal: new AbortController().signal, onWait: () => {} })
    const settled = result.catch((failure: unknown) => failure)
    await vi.advanceTimersByTimeAsync(BUSY_RETRY_LIMIT_MS)
    expect(await settled).toMatchObject({ status: 429, message: 'The server is busy.' })
    // Refused at 0, 1, … 30 s: the retry at 31 s would be past the bound.
    expect(attempts).toHaveLength(31)
    expect(attempts.at(-1)).toBe(BUSY_RETRY_LIMIT_MS)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not wait when the first Retry-After is already past the bound', async () => {
    const { attempt } = scripted([busy(31)])
    await expect(retryWhileBusy(attempt, { signal: new AbortController().signal, onWait: () => {} })).rejects.toMatchObject({ status: 429 })
    expect(attempt).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['a 429 without Retry-After', busy(undefined)],
    ['a 400, even with Retry-After', new ChatHttpError('Bad request.', 400, 'INVALID_REQUEST', 1)],
    ['a 503 with Retry-After', new ChatHttpError('Unavailable.', 503, undefined, 1)],
    ['a spent model budget, even a second before it resets', new ChatHttpError('You have used today’s model budget.', 429, 'budget_exhausted', 1, '2026-11-30T00:00:00.000Z')],
    ['a network failure', new TypeError('fetch failed')],
  ])('throws %s at once, sending nothing more', async (_name, failure) => {
    const { attempt } = scripted([failure])
    const onWait = vi.fn()
    await expect(retryWhileBusy(attempt, { signal: new AbortController().signal, onWait })).rejects.toBe(failure)
    expect(attempt).toHaveBeenCalledTimes(1)
    expect(onWait).not.toHaveBeenCalled()
  })

  it('stops waiting when aborted: nothing more is sent and no timer is left', async () => {
    const { attempt } = scripted([busy(5)])
    const abort = new AbortController()
    const waits: Array<BusyRetry | undefined> = []
    const result = retryWhileBusy(attempt, { signal: abort.signal, onWait: (wait) => waits.push(wait) })
    const settled = result.catch((failure: unknown) => failure)
    await vi.advanceTimersByTimeAsync(1000)
    abort.abort()
    expect(await settled).toBeInstanceOf(RetryAbortedError)
    expect(waits).toEqual([{ retryAt: 5000 }, undefined])
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(attempt).toHaveBeenCalledTimes(1)
  })
})

describe('secondsUntil', () => {
  it('counts whole seconds down to 1', () => {
    expect(secondsUntil(2000, 0)).toBe(2)
    expect(secondsUntil(2000, 1)).toBe(2)
    expect(secondsUntil(2000, 1000)).toBe(1)
    expect(secondsUntil(2000, 1999)).toBe(1)
    expect(secondsUntil(2000, 2500)).toBe(1)
  })
})

describe('untilNextSecond', () => {
  it('is the time until the seconds shown change, and nothing once they show 1', () => {
    expect(untilNextSecond(2000, 0)).toBe(1000)
    expect(untilNextSecond(2000, 250)).toBe(750)
    expect(secondsUntil(2000, 250 + 750)).toBe(secondsUntil(2000, 250) - 1)
    expect(untilNextSecond(2000, 999)).toBe(1)
    expect(untilNextSecond(2000, 1000)).toBeUndefined()
    expect(untilNextSecond(2000, 5000)).toBeUndefined()
  })
})
