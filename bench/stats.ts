export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export function summary(values: number[]): string {
  return `p50 ${percentile(values, 50).toFixed(2)} ms  p95 ${percentile(values, 95).toFixed(2)} ms  (n=${values.length})`
}

/** The middle value (the mean of the middle two of an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * The mean of `values` with its 95% confidence interval (± 1.96 standard errors): for the
 * ratios of side-by-side blocks, whether a figure is settled on this machine or within its
 * noise. `[NaN, NaN]` for fewer than two values.
 */
export function meanInterval(values: number[]): { mean: number; low: number; high: number } {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  if (values.length < 2) return { mean, low: NaN, high: NaN }
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1)
  const half = 1.96 * Math.sqrt(variance / values.length)
  return { mean, low: mean - half, high: mean + half }
}
