export interface RateLimiterOptions {
  /** Requests one address may make at once, after a quiet time (its bucket's size). */
  burst: number
  /** Requests per second one address may make, sustained (its bucket's refill). */
  perSecond: number
  /** Requests the whole server takes at once (the shared bucket's size); without it, no server-wide cap. */
  globalBurst?: number
  /** Requests per second the whole server takes, sustained (needed with `globalBurst`). */
  globalPerSecond?: number
  /** Addresses remembered at most (default 100,000); the least recently seen are forgotten first. */
  maxAddresses?: number
  now?: () => number
}

export type RateDecision =
  | { allowed: true }
  /** `scope`: whether this address or the whole server is over its rate. */
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
 * Token buckets: one per client address and one for the server, refilled lazily from the time
 * since they were last touched — no timer per address, nothing runs between requests.
 *
 * Invariants:
 * - An address makes at most `burst` requests at once and `perSecond` sustained; a request it
 *   is refused costs the server's bucket nothing, so one address flooding cannot drain the
 *   server's bucket faster than `perSecond`.
 * - Fair share of the server's bucket: an address that has spent more than half of its own
 *   bucket (a heavy user right now) may not take the server's last quarter; that reserve
 *   serves addresses that have been quiet. So while many addresses flood, one making its
 *   first requests is still served as long as the reserve is not empty.
 * - Memory is bounded: at most `maxAddresses` buckets, kept in a `Map` in order of last use;
 *   past that the least recently used is forgotten (an address forgotten returns with a full
 *   bucket, which is what a quiet address has anyway).
 */
export function createRateLimiter({
  burst,
  perSecond,
  globalBurst,
  globalPerSecond,
  maxAddresses = 100_000,
  now = Date.now,
}: RateLimiterOptions): RateLimiter {
  const global = globalBurst === undefined && globalPerSecond === undefined ? undefined : { burst: globalBurst, perSecond: globalPerSecond }
  for (const [name, value] of Object.entries({ burst, perSecond, maxAddresses, ...(global ? { globalBurst, globalPerSecond } : {}) })) {
    if (!(value! > 0) || !Number.isFinite(value)) throw new RangeError(`createRateLimiter: ${name} must be a positive number, not ${value}.`)
  }
  const buckets = new Map<string, Bucket>()
  const server: Bucket = { tokens: globalBurst ?? 0, at: now() }
  const reserve = (globalBurst ?? 0) / 4

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
      if (global) {
        refill(server, globalBurst!, globalPerSecond!, at)
        const heavy = bucket.tokens - 1 < burst / 2
        const floor = heavy ? reserve : 0
        if (server.tokens - 1 < floor) {
          return { allowed: false, scope: 'server', retryAfterSeconds: (floor + 1 - server.tokens) / globalPerSecond! }
        }
        server.tokens -= 1
      }
      bucket.tokens -= 1
      return { allowed: true }
    },
    get size() {
      return buckets.size
    },
  }
}
