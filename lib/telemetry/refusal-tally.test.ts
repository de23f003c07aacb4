import { describe, expect, it } from 'vitest'
import { createRefusalTally } from './refusal-tally'
import { createServerMetrics } from './metrics'

const HOUR = 3_600_000

describe('the refusal tally', () => {
  it('counts each refusal once for the metric (since the start) and for the last hour, by code and scope', () => {
    let now = 10 * HOUR
    const tally = createRefusalTally(() => now)
    tally.note('rate_limited', 'server')
    tally.note('rate_limited', 'address')
    tally.note('rate_limited', 'server')
    tally.note('invalid_json')
    expect(tally.lastHour()).toEqual([
      { code: 'rate_limited', scope: 'server', count: 2 },
      { code: 'invalid_json', scope: '', count: 1 },
      { code: 'rate_limited', scope: 'address', count: 1 },
    ])
    // An hour later the minute they fell in has left the hour; the totals keep them.
    now += HOUR
    tally.note('elicit_mismatch')
    expect(tally.lastHour()).toEqual([{ code: 'elicit_mismatch', scope: '', count: 1 }])
    expect(tally.totals()).toHaveLength(4)
    expect(tally.totals().reduce((sum, entry) => sum + entry.count, 0)).toBe(5)
  })

  it('keeps the minutes of the last hour, no more, however many refusals come', () => {
    let now = 0
    const tally = createRefusalTally(() => now)
    for (let minute = 0; minute < 180; minute++) {
      now = minute * 60_000
      for (let index = 0; index < 100; index++) tally.note('rate_limited', 'address')
    }
    expect(tally.lastHour()).toEqual([{ code: 'rate_limited', scope: 'address', count: 60 * 100 }])
    expect(tally.totals()).toEqual([{ code: 'rate_limited', scope: 'address', count: 180 * 100 }])
  })

  it('is what elicit_refusals_total serves: a refusal noted once shows in both', async () => {
    const metrics = createServerMetrics()
    metrics.refusals.note('budget_exhausted')
    metrics.refusals.note('budget_exhausted')
    expect(await metrics.registry.metrics()).toContain('elicit_refusals_total{code="budget_exhausted",scope=""} 2')
    expect(metrics.refusals.lastHour()).toEqual([{ code: 'budget_exhausted', scope: '', count: 2 }])
  })
})
