export interface RateLimiterOptions {
  /** Requests one address may make at once, after a quiet time (its bucket's size). */
  burst: number
  /** Requests per second one address may make, sustained (its bucket's refill). */
  perSecond: number
  /** Addresses remembered at most (default 100,000); the least recently seen are forgotten first. */
  maxAddresses?: number
  now?: () => number
}

export type RateDecision =
  | { allowed: true }
  /** `scope`: whether this address or the whole server (admission.ts) is over its rate. */
  | { allowed: false; scope: 'address' | 'server'; retryAfterSeconds: number }

export interface RateLimiter {
  /** Take one request's worth for `address`, or say how long to wait. */
  take(address: string): RateDecision
  /** Addresses remembered now (for tests and the bench). */
  readonly size: number
}

interface Bucket {
  tokens: number
  at: number
}

/**
 * Token buckets, one per client address, refilled lazily from the time since they were last
 * touched — no timer per address, nothing runs between requests. (The server's own budget, and
 * who goes first when it is spent, is admission.ts.)
 *
 * Invariants:
 * - An address makes at most `burst` requests at once and `perSecond` sustained.
 * - Memory is bounded: at most `maxAddresses` buckets, kept in a `Map` in order of last use;
 *   past that the least recently used is forgotten (an address forgotten returns with a full
 *   bucket, which is what a quiet address has anyway).
 */
export function createRateLimiter({ burst, perSecond, maxAddresses = 100_000, now = Date.now }: RateLimiterOptions): RateLimiter {
  for (const [name, value] of Object.entries({ burst, perSecond, maxAddresses })) {
    if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`createRateLimiter: ${name} must be a positive number, not ${value}.`)
  }
  const buckets = new Map<string, Bucket>()

  const refill = (bucket: Bucket, size: number, rate: number, at: number) => {
    bucket.tokens = Math.min(size, bucket.tokens + ((at - bucket.at) / 1000) * rate)
    bucket.at = at
  }

  return {
    take(address) {
      const at = now()
      let bucket = buckets.get(address)
      if (bucket) buckets.delete(address)
      else {
        bucket = { tokens: burst, at }
        if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value!)
      }
      buckets.set(address, bucket)
      refill(bucket, burst, perSecond, at)
      if (bucket.tokens < 1) {
        return { allowed: false, scope: 'address', retryAfterSeconds: (1 - bucket.tokens) / perSecond }
      }
      bucket.tokens -= 1
      return { allowed: true }
    },
    get size() {
      return buckets.size
    },
  }
}
