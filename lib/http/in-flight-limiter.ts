/** Counts the requests of each client address that are still being answered. */
export interface InFlightLimiter {
  /** A request from `address` begins: its `release` (call it once the answer has ended), or undefined when the address is at its limit. */
  enter(address: string): (() => void) | undefined
  /** Addresses with a request in flight now. */
  readonly size: number
}

/**
 * At most `maxPerAddress` requests in flight per client address. A rate limit alone lets an
 * address keep many slow requests open at once (each one admitted within its rate), and those
 * queue ahead of everyone else's; this bounds how many.
 *
 * Invariant: an address is in the map only while it has a request in flight, so memory
 * follows the requests being answered; `release` is idempotent.
 */
export function createInFlightLimiter({ maxPerAddress }: { maxPerAddress: number }): InFlightLimiter {
  if (!Number.isInteger(maxPerAddress) || maxPerAddress < 1) throw new RangeError(`createInFlightLimiter: maxPerAddress must be a whole number of at least 1, not ${maxPerAddress}.`)
  const counts = new Map<string, number>()
  return {
    enter(address) {
      const count = counts.get(address) ?? 0
      if (count >= maxPerAddress) return undefined
      counts.set(address, count + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (counts.get(address) ?? 1) - 1
        if (left <= 0) counts.delete(address)
        else counts.set(address, left)
      }
    },
    get size() {
      return counts.size
    },
  }
}
