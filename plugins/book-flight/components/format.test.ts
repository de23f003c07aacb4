import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatPrice } from './format'

const intl = (price: number) => `$${price.toLocaleString('en-US', { maximumFractionDigits: 2 })}`

describe('formatPrice', () => {
  it('says a price as Intl does in en-US with at most two decimals', () => {
    for (const price of [0, 1, 12.5, 99.99, 199, 999.995, 1000, 1249, 1.005, 2.675, 0.004, 0.005, 1234567.891, -5, -0.001, -0, 1e-7, 1e21]) {
      expect(formatPrice(price)).toBe(intl(price))
    }
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (price) => formatPrice(price) === intl(price)),
      { numRuns: 5_000, seed: 38 },
    )
    const toTheThousandth = fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 999 })).map(([whole, thousandths]) => whole + thousandths / 1000)
    fc.assert(
      fc.property(toTheThousandth, (price) => formatPrice(price) === intl(price)),
      { numRuns: 5_000, seed: 38 },
    )
  })
})
