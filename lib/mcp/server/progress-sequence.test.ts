import { describe, expect, it } from 'vitest'
import { createProgressSequence, PROGRESS_TOTAL } from './progress-sequence'

describe('ProgressSequence', () => {
  it('uses the tool’s fractions in whole percent while they move forward, from 0', () => {
    const sequence = createProgressSequence()
    expect(sequence.last()).toBeUndefined()
    expect([0, 0.1, 0.256, 0.5, 1].map((fraction) => sequence.next(fraction))).toEqual([0, 10, 26, 50, 100])
    expect(sequence.last()).toBe(PROGRESS_TOTAL)
  })

  it('moves a hundredth of a percent past the last value for a report that does not move forward', () => {
    const sequence = createProgressSequence()
    expect([0.25, 0.25, 0.25, undefined, 0.1, 0.5].map((fraction) => sequence.next(fraction))).toEqual([25, 25.01, 25.02, 25.03, 25.04, 50])
  })

  it('starts a report without a fraction at 0, and carries on from the last value of an earlier round', () => {
    expect(createProgressSequence().next(undefined)).toBe(0)
    const round = createProgressSequence(25)
    expect(round.last()).toBe(25)
    expect(round.next(0.25)).toBe(25.01)
    expect(round.next(0.5)).toBe(50)
  })

  it('never reaches the total before the end by nudging: it halves the distance instead, and sends nothing once none is left', () => {
    const sequence = createProgressSequence(99.99)
    expect(sequence.next(0.5)).toBe(99.995)
    expect(sequence.next(undefined)).toBe(99.9975)
    expect(sequence.end()).toBe(PROGRESS_TOTAL)
    const stuck = createProgressSequence(100 - 2 ** -46)
    for (let index = 0; index < 10; index++) stuck.next(undefined)
    const last = stuck.last()!
    expect(last).toBeLessThan(PROGRESS_TOTAL)
    expect(stuck.next(undefined)).toBeUndefined()
    expect(stuck.last()).toBe(last)
  })

  it('sends nothing more once the tool said it was done, and no second total at the end', () => {
    const sequence = createProgressSequence()
    sequence.next(0.5)
    expect(sequence.next(1)).toBe(PROGRESS_TOTAL)
    expect(sequence.next(0.5)).toBeUndefined()
    expect(sequence.next(1)).toBeUndefined()
    expect(sequence.end()).toBeUndefined()
  })

  it('ends at the total when the tool stopped short of it, or reported nothing', () => {
    const short = createProgressSequence()
    short.next(0.6)
    expect(short.end()).toBe(PROGRESS_TOTAL)
    expect(short.end()).toBeUndefined()
    expect(createProgressSequence().end()).toBe(PROGRESS_TOTAL)
  })

  it('keeps fractions and carried values within 0..total', () => {
    const sequence = createProgressSequence()
    expect(sequence.next(-1)).toBe(0)
    expect(sequence.next(Number.NaN)).toBe(0.01)
    expect(sequence.next(7)).toBe(PROGRESS_TOTAL)
    expect(createProgressSequence(250).last()).toBe(PROGRESS_TOTAL)
    expect(createProgressSequence(-3).next(undefined)).toBe(0.01)
  })

  it('strictly increases over any reports, and ends at the total', () => {
    const fractions = [0.3, undefined, 0.3, 0.1, 0.6, 0.6, 0.6, undefined, 0.9, 0.2, 0.95]
    const sequence = createProgressSequence()
    const values = [...fractions.map((fraction) => sequence.next(fraction)), sequence.end()].filter((value) => value !== undefined)
    expect(values).toHaveLength(fractions.length + 1)
    for (let index = 1; index < values.length; index++) expect(values[index]!).toBeGreaterThan(values[index - 1]!)
    expect(values.at(-1)).toBe(PROGRESS_TOTAL)
  })
})
