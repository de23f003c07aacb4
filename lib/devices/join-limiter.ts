import { createRateLimiter, type RateDecision } from '../http'
import type { DeviceLimits } from './limits'

export interface JoinLimiter {
  /** One join attempt from `address`: its own budget, then the server's. */
  take(address: string): RateDecision
}

/**
 * What bounds guessing codes: every join attempt, right or wrong, is charged before the code is
 * looked at — to its address, then to the server. Charged up front, not on failure: concurrent
 * guesses would all pass a check made before any of them failed. A person joins once; the
 * budgets leave room for a few typos and nothing like a search of 2^40 codes. Per process: with
 * N instances the server's budget is N times this (docs/devices.md).
 */
export function createJoinLimiter(limits: DeviceLimits, now?: () => number): JoinLimiter {
  const perAddress = createRateLimiter({ burst: limits.joinBurstPerAddress, perSecond: limits.joinsPerMinutePerAddress / 60, now })
  const server = createRateLimiter({ burst: limits.joinBurst, perSecond: limits.joinsPerMinute / 60, maxAddresses: 1, now })
  return {
    take(address) {
      const own = perAddress.take(address)
      if (!own.allowed) return own
      const all = server.take('server')
      return all.allowed ? all : { ...all, scope: 'server' }
    },
  }
}
