/** The `total` of every progress notification a plugin tool sends over MCP: progress is in percent. */
export const PROGRESS_TOTAL = 100

/** How far a report that does not move forward by itself moves past the last value: a hundredth of a percent. */
const NUDGE = 0.01

/**
 * The `progress` values of one tool call's `notifications/progress`, from 0 to `PROGRESS_TOTAL`.
 *
 * Invariant: each value is strictly greater than every value sent before it in the call, none
 * is greater than the total, and the call's last value is the total. A call of several rounds
 * keeps the invariant across them: each round starts the sequence from the last value an
 * earlier round sent (`last`, carried in the round's state), so a round that replays the tool
 * never sends a lower or equal value.
 *
 * A tool's own fraction (`ctx.notify(message, 0.25)`) is used, in whole percent, when it moves
 * forward. One that does not — a question asked again reports the fraction it reported the
 * first time, a report may have no fraction — moves a hundredth of a percent past the last
 * value (or halfway to the total, when that is nearer). A tool that reports the total while it
 * still runs has said it is done: reports after that have no value left to take, and are not
 * sent. `end` gives the total when the tool ends short of it.
 */
export interface ProgressSequence {
  /** The value for a report of `fraction` (0..1, or none); undefined when none can be sent. */
  next(fraction: number | undefined): number | undefined
  /** The value for the end of the call: the total, unless it was sent already. */
  end(): number | undefined
  /** The last value sent, if any: what the next round starts from. */
  last(): number | undefined
}

export function createProgressSequence(last?: number): ProgressSequence {
  let current = last === undefined || !Number.isFinite(last) ? undefined : Math.min(Math.max(last, 0), PROGRESS_TOTAL)

  function take(value: number | undefined): number | undefined {
    if (value === undefined) return undefined
    current = value
    return value
  }

  return {
    next(fraction) {
      const asked = fraction === undefined || !Number.isFinite(fraction) ? undefined : Math.round(Math.min(Math.max(fraction, 0), 1) * PROGRESS_TOTAL)
      if (current === undefined) return take(asked ?? 0)
      if (asked !== undefined && asked > current) return take(asked)
      if (current >= PROGRESS_TOTAL) return undefined
      const nudged = Math.round((current + NUDGE) * 100) / 100
      const value = nudged < PROGRESS_TOTAL ? nudged : current + (PROGRESS_TOTAL - current) / 2
      // Past the last float below the total, nothing lies between the two.
      return take(value > current && value < PROGRESS_TOTAL ? value : undefined)
    },
    end() {
      return current === PROGRESS_TOTAL ? undefined : take(PROGRESS_TOTAL)
    },
    last: () => current,
  }
}
