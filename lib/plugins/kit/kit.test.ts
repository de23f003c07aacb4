import { run, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { createMcpTool, type ElicitResult } from '../../tools'
import { z } from 'zod'
import { askUntilValid } from './ask-until-valid'
import { defineOfflineSkill } from './define-offline-skill'
import { CODE_ALPHABET, createCode, seededNumber, stableHash } from './seeded'

/** Answers handed out in order, as a user would give them; records what each question said. */
function scriptedAnswers(answers: Array<ElicitResult<object, { n: number }>>) {
  const asked: Array<string | undefined> = []
  return {
    asked,
    *ask(problem: string | undefined): Operation<ElicitResult<object, { n: number }>> {
      asked.push(problem)
      const next = answers.shift()
      if (!next) throw new Error('asked once too often')
      return next
    },
  }
}
const accept = (n: number) => ({ action: 'accept', content: { n }, exchange: {} as never }) as const

describe('askUntilValid', () => {
  it('asks again with the problem until an answer is usable', async () => {
    const script = scriptedAnswers([accept(7), accept(12), accept(3)])
    const logged: string[] = []
    const result = await run(() =>
      askUntilValid({
        ask: script.ask,
        check: ({ n }) => (n <= 5 ? { value: n * 10 } : { problem: `${n} is too big.` }),
        *onProblem(problem, { n }) {
          logged.push(`${problem} (${n})`)
        },
      }),
    )
    expect(result).toMatchObject({ action: 'accept', value: 30, answer: { content: { n: 3 } } })
    expect(script.asked).toEqual([undefined, '7 is too big.', '12 is too big.'])
    expect(logged).toEqual(['7 is too big. (7)', '12 is too big. (12)'])
  })

  it('ends at a decline or cancel', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const script = scriptedAnswers([accept(9), { action }])
      const result = await run(() => askUntilValid({ ask: script.ask, check: () => ({ problem: 'never' }) }))
      expect(result).toEqual({ action })
    }
  })
})

describe('seeded values and codes', () => {
  it('gives the same number for the same seed, spread over the bound', () => {
    expect(seededNumber({ seed: 'NYC-LAX', bound: 300 })).toBe(seededNumber({ seed: 'NYC-LAX', bound: 300 }))
    expect(stableHash('NYC-LAX')).toBe(stableHash('NYC-LAX'))
    const seen = new Set(Array.from({ length: 200 }, (_, index) => seededNumber({ seed: `seat ${index}`, bound: 10 })))
    expect(seen.size).toBe(10)
    expect(() => seededNumber({ seed: 'x', bound: 0 })).toThrow(RangeError)
  })

  it('makes readable random codes', () => {
    const codes = new Set(Array.from({ length: 100 }, () => createCode({ prefix: 'TKT-', length: 6 })))
    expect(codes.size).toBe(100)
    for (const code of codes) expect(code).toMatch(new RegExp(`^TKT-[${CODE_ALPHABET}]{6}$`))
  })
})

describe('defineOfflineSkill', () => {
  it('binds the skill to its tool by name', () => {
    const greet = createMcpTool('greet').parameters(z.object({ name: z.string() })).elicits({}).execute(function* ({ name }) {
      return `Hello, ${name}`
    })
    const skill = defineOfflineSkill(greet, { example: 'greet', recognise: () => ({ confidence: 1, text: 'Hi', calls: [{ name: 'Ada' }] }) })
    expect(skill.toolName).toBe('greet')
    expect(skill.recognise?.({ text: '', prompt: [], maxCalls: 8 })?.calls).toEqual([{ name: 'Ada' }])
  })
})
