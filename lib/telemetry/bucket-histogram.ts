import type { Registry } from 'prom-client'

/**
 * A Prometheus histogram whose `observe` costs a lookup, a bucket search and three additions:
 * prom-client's own validates, sorts and hashes the labels and converts each bucket's bound to a
 * string on every call, which on a booking's path (a request, each store operation, each model
 * call) was a measurable part of what the telemetry cost with no exporter (docs/benchmarks.md).
 * Each set of label values keeps its counts in arrays; they are written out in prom-client's
 * format (`_bucket` with `le`, cumulative, then `_sum` and `_count`) only when the registry is
 * scraped. The label values are bounded by whoever observes (routes, codes, operations), as for
 * every metric of ours.
 */
export interface BucketHistogram<L extends string> {
  observe(labels: Record<L, string | number>, value: number): void
}

interface Series {
  labels: Record<string, string | number>
  /** Observations per bucket, not cumulative; the last is above every bound (`+Inf`). */
  counts: number[]
  sum: number
  count: number
}

export function bucketHistogram<L extends string>({
  name,
  help,
  labelNames,
  buckets,
  registers,
}: {
  name: string
  help: string
  labelNames: readonly L[]
  buckets: readonly number[]
  registers: Registry[]
}): BucketHistogram<L> {
  const series = new Map<string, Series>()
  const metric = {
    name,
    help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type: metric.type, aggregator: metric.aggregator, values: [...series.values()].flatMap(valuesOf) }),
    reset: () => series.clear(),
  }
  const valuesOf = ({ labels, counts, sum, count }: Series) => {
    let cumulative = 0
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = buckets.map((bound, index) => ({ metricName: `${name}_bucket`, labels: { le: bound, ...labels }, value: (cumulative += counts[index]!) }))
    values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: count })
    return [...values, { metricName: `${name}_sum`, labels, value: sum }, { metricName: `${name}_count`, labels, value: count }]
  }
  for (const registry of registers) registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0])
  return {
    observe(labels, value) {
      let key = ''
      for (const label of labelNames) key += `${labels[label]}\u0000`
      let found = series.get(key)
      if (!found) {
        const own: Record<string, string | number> = {}
        for (const label of labelNames) own[label] = labels[label]
        found = { labels: own, counts: new Array<number>(buckets.length + 1).fill(0), sum: 0, count: 0 }
        series.set(key, found)
      }
      let index = 0
      while (index < buckets.length && value > buckets[index]!) index++
      found.counts[index]!++
      found.sum += value
      found.count++
    },
  }
}
