import { ChatHttpError } from './chat-request'

/**
 * How long after the first refusal the browser may still send a request again by itself.
 * A retry that `Retry-After` would put later than this is not made: the refusal is shown.
 */
export const BUSY_RETRY_LIMIT_MS = 30_000

/** The shortest wait before a retry, whatever `Retry-After` says (`0` would be a tight loop). */
export const MIN_BUSY_WAIT_MS = 1_000

/** The wait for a retry was aborted: the request was not sent again, and the server started nothing. */
export class RetryAbortedError extends Error {
  override name = 'RetryAbortedError'
  constructor() {
    super('The request was not sent again: the wait for the busy server was stopped.')
  }
}

/** A request that waits to be sent again: when it goes (`Date.now()` time, in ms). */
export interface BusyRetry {
  retryAt: number
}

/**
 * Post a request of the chat contract, and while the server refuses it with a 429 that says
 * when to come back (`Retry-After`), wait that long and post the same request again.
 *
 * Safe for every request of the contract: a 429 is given before the server starts anything,
 * and an answer to a question is taken exactly once, so a resent one cannot book twice.
 *
 * Invariants:
 * - A request is sent again only after the wait the server asked for (at least
 *   `MIN_BUSY_WAIT_MS`), and only while that is no later than `BUSY_RETRY_LIMIT_MS` after its
 *   first refusal; past that, or without `Retry-After`, or for any other failure, the failure
 *   is thrown as it came.
 * - One timer per wait, cleared when `signal` aborts: an aborted wait sends nothing more and
 *   throws a `RetryAbortedError`. Nothing outlives the returned promise.
 * - `onWait` is told each wait (`{ retryAt }`), and `undefined` once the wait is over, however
 *   it ends.
 *
 * @example
 * const response = await retryWhileBusy(() => postChat({ body, signal }), { signal, onWait: showBusy })
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  { signal, onWait }: { signal: AbortSignal; onWait: (busy: BusyRetry | undefined) => void },
): Promise<T> {
  let firstRefusedAt: number | undefined
  for (;;) {
    try {
      return await attempt()
    } catch (failure) {
      if (!(failure instanceof ChatHttpError) || signal.aborted) throw failure
      const now = Date.now()
      firstRefusedAt ??= now
      const wait = busyWait(failure, { firstRefusedAt, now })
      if (wait === undefined) throw failure
      onWait({ retryAt: now + wait })
      try {
        await sleep(wait, signal)
      } finally {
        onWait(undefined)
      }
      if (signal.aborted) throw new RetryAbortedError()
    }
  }
}

/** How long to wait before sending a refused request again, or `undefined`: do not. */
export function busyWait(refusal: ChatHttpError, { firstRefusedAt, now }: { firstRefusedAt: number; now: number }): number | undefined {
  // A spent model budget is not busy: its Retry-After is the next midnight UTC, and the browser does not wait it out.
  if (refusal.status !== 429 || refusal.retryAfterSeconds === undefined || refusal.code === 'budget_exhausted') return undefined
  const wait = Math.max(MIN_BUSY_WAIT_MS, refusal.retryAfterSeconds * 1000)
  return now + wait - firstRefusedAt <= BUSY_RETRY_LIMIT_MS ? wait : undefined
}

/** Whole seconds left until the retry, as a countdown shows them: never below 1. */
export function secondsUntil(retryAt: number, now: number): number {
  return Math.max(1, Math.ceil((retryAt - now) / 1000))
}

/** How long until `secondsUntil` shows one second less: when a countdown next changes (`undefined`: at 1, it no longer does). */
export function untilNextSecond(retryAt: number, now: number): number | undefined {
  const left = retryAt - now
  return left > 1000 ? left % 1000 || 1000 : undefined
}

/** Resolve after `ms`, or as soon as `signal` aborts; the timer is cleared either way. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    function onAbort() {
      clearTimeout(timer)
      resolve()
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
