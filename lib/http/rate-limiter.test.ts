import { describe, expect, it } from 'vitest'
import { createRateLimiter, type RateLimiterOptions } from './rate-limiter'

function limiter(options: Partial<RateLimiterOptions> = {}) {
  let time = 1_000_000
  const rates = createRateLimiter({ burst: 10, perSecond: 2, now: () => time, ...options })
  return {
    rates,
    advance: (ms: number) => (time += ms),
    /** How many of `count` requests from `address` right now are allowed. */
    allowed: (address: string, count: number) => Array.from({ length: count }, () => rates.take(address)).filter((decision) => decision.allowed).length,
  }
}

describe('createRateLimiter', () => {
  it('lets an address make its burst at once, then refuses with when to try again', () => {
    const { rates, allowed } = limiter()
    expect(allowed('a', 10)).toBe(10)
    expect(rates.take('a')).toEqual({ allowed: false, scope: 'address', retryAfterSeconds: 0.5 })
  })

  it('refills lazily from the time passed, up to the burst', () => {
    const { advance, allowed } = limiter()
    allowed('a', 10)
    advance(1_000)
    expect(allowed('a', 5)).toBe(2)
    advance(60_000)
    expect(allowed('a', 20)).toBe(10)
  })

  it('keeps addresses apart: one flooding does not limit another', () => {
    const { allowed } = limiter()
    expect(allowed('flood', 1_000)).toBe(10)
    expect(allowed('quiet', 5)).toBe(5)
  })

  it('remembers at most maxAddresses, forgetting the least recently seen', () => {
    const { rates, allowed } = limiter({ maxAddresses: 3 })
    allowed('a', 10)
    allowed('b', 1)
    allowed('c', 1)
    allowed('b', 1)
    allowed('d', 1)
    expect(rates.size).toBe(3)
    // 'a' was forgotten, so it starts again with a full bucket; 'b' was kept.
    expect(allowed('a', 10)).toBe(10)
    expect(allowed('b', 10)).toBe(8)
  })

  it('refuses options that are not positive numbers', () => {
    expect(() => createRateLimiter({ burst: 0, perSecond: 1 })).toThrow(/burst must be a positive number/)
  })
})
