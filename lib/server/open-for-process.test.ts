import { ensure, sleep, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { openForProcess } from './open-for-process'

describe('openForProcess: runNow', () => {
  it('gives what an operation returns or throws, whether it finishes at once or after yielding, as run does', async () => {
    const cleaned: string[] = []
    const { value, run, runNow } = await openForProcess(function* () {
      return { reads: 0 }
    })
    function* atOnce(): Operation<number> {
      return ++value.reads
    }
    function* later(): Operation<number> {
      const before = ++value.reads
      yield* ensure(() => void cleaned.push(`after ${before}`))
      yield* sleep(1)
      return before * 10
    }
    function* fails(yields: boolean): Operation<never> {
      if (yields) yield* sleep(1)
      throw new Error(yields ? 'failed after a yield' : 'failed at once')
    }
    for (const runner of [run, runNow]) {
      const reads = value.reads
      expect(await runner(atOnce)).toBe(reads + 1)
      expect(await runner(later)).toBe((reads + 2) * 10)
      expect(cleaned.at(-1)).toBe(`after ${reads + 2}`)
      await expect(runner(() => fails(false))).rejects.toThrow('failed at once')
      await expect(runner(() => fails(true))).rejects.toThrow('failed after a yield')
    }
  })
})
