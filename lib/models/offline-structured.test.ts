import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { leastCpuMsOf } from '@/lib/testing/cpu-time'
import { readPromptHints, type PromptHints } from './offline-prompt-hints'
import { createStructuredValue } from './offline-structured'

const CARDS_PROMPT = [
  'Here are 5 playing cards, numbered:',
  '1. Seven of Clubs (7♣)',
  '2. Queen of Hearts (Q♥)',
  '3. Two of Spades (2♠)',
  '4. Ten of Diamonds (10♦)',
  '5. Four of Hearts (4♥)',
  'Which card would you pick, and why?',
].join('\n')

/** Generate from the JSON Schema Zod makes, in both drafts, and check Zod accepts the result. */
function fill<S extends z.ZodType>(schema: S, prompt = 'Tell me something', hints?: Partial<PromptHints>): z.output<S> {
  for (const target of ['draft-2020-12', 'draft-7'] as const) {
    const value = createStructuredValue({ schema: z.toJSONSchema(schema, { target, unrepresentable: 'any' }), prompt, hints })
    const parsed = schema.safeParse(value)
    if (!parsed.success) throw new Error(`${target}: ${JSON.stringify(value)} does not match: ${parsed.error.message}`)
  }
  return schema.parse(createStructuredValue({ schema: z.toJSONSchema(schema), prompt, hints }))
}

describe('readPromptHints', () => {
  it('reads numbered choices, knowing nothing of what they are', () => {
    const hints = readPromptHints(CARDS_PROMPT)
    expect(hints.choices.map((choice) => choice.number)).toEqual([1, 2, 3, 4, 5])
    expect(hints.choices[1]).toEqual({ number: 2, label: 'Queen of Hearts (Q♥)' })
    expect(hints.noun).toBeUndefined()
    expect(hints.summary).toBeUndefined()
  })

  it('reads a run of blank lines and a long line in linear time', () => {
    const text = `${'\n'.repeat(100_000)}1. ${' '.repeat(100_000)}x`
    // CPU time, not the wall clock: another process on the machine cannot make it miss.
    expect(leastCpuMsOf(() => readPromptHints(text), 5)).toBeLessThan(50)
  })

  it('chooses among other choices by a stable hash, and finds none in plain text', () => {
    const prompt = 'Where next?\n1) Paris\n2) Rome\n3) Lisbon'
    const hints = readPromptHints(prompt)
    expect(hints.choices.map((choice) => choice.label)).toEqual(['Paris', 'Rome', 'Lisbon'])
    expect(hints.summary).toBeUndefined()
    expect(hints.noun).toBeUndefined()
    expect(readPromptHints(prompt).favourite).toEqual(hints.favourite)
    expect(readPromptHints('Summarise the history of aviation')).toEqual({ topic: 'Summarise the history of aviation', choices: [] })
  })

  it('takes the longest run numbered from 1', () => {
    const hints = readPromptHints('Step 1. think\n\n1. Red\n2. Green\n3. Blue\n7. stray')
    expect(hints.choices.map((choice) => choice.label)).toEqual(['Red', 'Green', 'Blue'])
  })
})

describe('createStructuredValue from any schema', () => {
  it('fills strings, numbers, integers, booleans and enums within their constraints', () => {
    const value = fill(
      z.object({
        title: z.string().min(3).max(40),
        tiny: z.string().max(5),
        padded: z.string().min(200),
        score: z.number().int().min(1).max(10),
        ratio: z.number().min(0).max(1),
        above: z.number().gt(5),
        below: z.number().int().lt(-3),
        even: z.number().int().multipleOf(4).min(5).max(20),
        done: z.boolean(),
        colour: z.enum(['red', 'green']),
        literal: z.literal('fixed'),
      }),
    )
    expect(value.score).toBe(6)
    expect(value.ratio).toBe(0.5)
    expect(value.colour).toBe('red')
    expect(value.literal).toBe('fixed')
    expect(value.even % 4).toBe(0)
    expect(value.below).toBe(-4)
    expect(value.above).toBeGreaterThan(5)
  })

  it('fills nested objects, arrays with minItems, nullable and optional fields, unions and defaults', () => {
    const value = fill(
      z.object({
        tags: z.array(z.string()).min(3).max(5),
        points: z.array(z.object({ x: z.number(), y: z.number().int().nonnegative() })).min(2),
        pair: z.tuple([z.string(), z.number()]),
        note: z.string().nullable(),
        maybe: z.number().optional(),
        either: z.union([z.null(), z.object({ id: z.string() })]),
        level: z.number().default(3),
        when: z.iso.datetime(),
        email: z.email(),
      }),
    )
    expect(value.tags).toHaveLength(3)
    expect(new Set(value.tags).size).toBe(3)
    expect(value.points).toHaveLength(2)
    expect(typeof value.note).toBe('string')
    expect(value.either).toEqual({ id: expect.any(String) })
    expect(value.level).toBe(3)
  })

  it('follows local $refs, including recursive ones, without looping', () => {
    type Node = { name: string; children: Node[] }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }))
    const schema = z.toJSONSchema(z.object({ root: node }), { reused: 'ref', cycles: 'ref' })
    const value = createStructuredValue({ schema, prompt: 'A tree' })
    expect(value).toMatchObject({ root: { name: expect.any(String), children: expect.any(Array) } })
  })

  it('handles allOf, and a hand-written schema without types', () => {
    expect(
      createStructuredValue({
        schema: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { minimum: 2, maximum: 4 } }, required: ['b', 'c'] },
          ],
        },
        prompt: 'x',
      }),
    ).toEqual({ a: expect.any(String), b: 3, c: expect.any(String) })
  })

  it('summarises and reasons about choices that are not cards in general terms', () => {
    const value = fill(z.object({ summary: z.string(), choice: z.number().int().min(1).max(3), reason: z.string() }), 'Where next?\n1. Paris\n2. Rome\n3. Lisbon')
    expect(value.summary).toBe('3 choices: Paris, Rome, Lisbon.')
    expect(value.reason).toBe(`“${['Paris', 'Rome', 'Lisbon'][value.choice - 1]}” looks like the best fit of the 3 listed.`)
  })

  it('answers with an object when there is no schema', () => {
    expect(createStructuredValue({ schema: undefined, prompt: 'Hello' })).toEqual({ answer: expect.stringContaining('Hello') })
  })

  it('puts the preferred choice a skill names into name-like strings and enums that name it', () => {
    const value = fill(
      z.object({ favouriteCard: z.string(), suit: z.enum(['clubs', 'hearts', 'spades']), reason: z.string() }),
      CARDS_PROMPT,
      { favourite: { number: 2, label: 'Queen of Hearts (Q♥)' } },
    )
    expect(value.favouriteCard).toBe('Queen of Hearts (Q♥)')
    expect(value.suit).toBe('hearts')
  })
})
