import { Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { bucketHistogram } from './bucket-histogram'

describe('the bucket histogram', () => {
  it('serves, for the same observations, the very text prom-client’s own histogram serves: cumulative buckets with le, +Inf, sum and count per set of labels', async () => {
    const options = { name: 'op_duration_seconds', help: 'How long an operation took.', labelNames: ['operation', 'status'] as const, buckets: [0.01, 0.1, 1] }
    const ours = new Registry()
    const theirs = new Registry()
    const fast = bucketHistogram({ ...options, registers: [ours] })
    const reference = new Histogram({ ...options, labelNames: [...options.labelNames], registers: [theirs] })
    const observations: Array<[{ operation: string; status: number }, number]> = [
      [{ operation: 'get', status: 200 }, 0.005],
      [{ operation: 'get', status: 200 }, 0.01],
      [{ operation: 'get', status: 200 }, 0.5],
      [{ operation: 'get', status: 500 }, 7],
      [{ operation: 'put "x"', status: 200 }, 0.1],
    ]
    for (const [labels, value] of observations) {
      fast.observe(labels, value)
      reference.observe(labels, value)
    }
    const text = await ours.metrics()
    expect(text).toBe(await theirs.metrics())
    expect(text).toContain('op_duration_seconds_bucket{le="0.01",operation="get",status="200"} 2')
    expect(text).toContain('op_duration_seconds_count{operation="get",status="500"} 1')
  })

  it('forgets its series when the registry is reset', async () => {
    const registry = new Registry()
    const histogram = bucketHistogram({ name: 'x_seconds', help: 'x', labelNames: ['a'], buckets: [1], registers: [registry] })
    histogram.observe({ a: 'b' }, 0.5)
    registry.resetMetrics()
    expect(await registry.metrics()).not.toContain('x_seconds_count')
  })
})
