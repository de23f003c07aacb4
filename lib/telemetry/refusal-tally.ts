/**
 * The refusals this instance answered, the one record of them: `elicit_refusals_total` reads its
 * totals at each scrape, and the operator's view its last hour. Bounded whatever the traffic:
 * totals by code and scope (a bounded set), and the last hour as one count per code, scope and
 * minute (at most 60 minutes of them).
 */
export interface RefusalTally {
  /** One refusal with `code` (and a 429's `scope`: `address` or `server`), at `at` (epoch ms, default now). */
  note(code: string, scope?: string, at?: number): void
  /** Every refusal since the process started, by code and scope (empty when none). */
  totals(): RefusalCount[]
  /** The refusals of the hour before `at` (default now), by code and scope, most first. */
  lastHour(at?: number): RefusalCount[]
}

export interface RefusalCount {
  code: string
  /** `address` or `server` for a 429; empty otherwise. */
  scope: string
  count: number
}

const MINUTE_MS = 60_000
const HOUR_MINUTES = 60

export function createRefusalTally(now: () => number = Date.now): RefusalTally {
  const totals = new Map<string, RefusalCount>()
  /** The minutes with refusals, oldest first: each minute's number and its counts by code and scope. */
  const minutes: Array<{ minute: number; counts: Map<string, RefusalCount> }> = []

  const add = (counts: Map<string, RefusalCount>, code: string, scope: string, count = 1) => {
    const key = `${code}\u0000${scope}`
    const entry = counts.get(key)
    if (entry) entry.count += count
    else counts.set(key, { code, scope, count })
  }
  const forgetBefore = (minute: number) => {
    while (minutes.length > 0 && minutes[0]!.minute <= minute - HOUR_MINUTES) minutes.shift()
  }

  return {
    note(code, scope = '', at = now()) {
      add(totals, code, scope)
      const minute = Math.floor(at / MINUTE_MS)
      forgetBefore(minute)
      let last = minutes.at(-1)
      if (!last || last.minute < minute) minutes.push((last = { minute, counts: new Map() }))
      add(last.counts, code, scope)
    },
    totals: () => [...totals.values()].map((entry) => ({ ...entry })),
    lastHour(at = now()) {
      const minute = Math.floor(at / MINUTE_MS)
      forgetBefore(minute)
      const hour = new Map<string, RefusalCount>()
      for (const { counts } of minutes) for (const { code, scope, count } of counts.values()) add(hour, code, scope, count)
      return [...hour.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
    },
  }
}
