import { describe, expect, it } from 'vitest'
import { createOfflineModel, MAX_TOOL_CALLS_PER_STEP } from '@/lib/models'
import { offlineReplyTo, offlineSampleAnswer, offlineSummaryOf } from '@/lib/models/testing/offline-replies'
import { leastCpuMsOf } from '@/lib/testing/cpu-time'
import { offlineSkills, plugins } from './index'

// The offline model as the app runs it: every plugin's skill, from the one list.
const skills = offlineSkills

describe('the offline model with every plugin’s skill', () => {
  it('has a skill for each plugin that gives one, for its own tool', () => {
    expect(skills.map((skill) => skill.toolName)).toEqual(plugins.flatMap((plugin) => ('offline' in plugin ? [plugin.name] : [])))
  })

  it('names what each plugin can do', () => {
    const text = offlineReplyTo({ skills, text: 'What can you do?' }).text
    for (const skill of skills) expect(text).toContain(skill.example)
  })

  // A plugin's suggestion is checked against its own skill: another plugin's skill that hears the
  // same words makes a tie, decided by the rule docs/plugins.md states (lib/models/offline-plan.test.ts
  // holds the planner to it), not a failure of this test.
  it.each(plugins.flatMap((plugin) => ('suggestions' in plugin ? plugin.suggestions.map((text) => [text, plugin.name] as const) : [])))(
    'its own skill sends its suggestion %j to %s alone',
    (text, toolName) => {
      const own = skills.filter((skill) => skill.toolName === toolName)
      expect(offlineReplyTo({ skills: own, text }).toolCalls.map((call) => call.toolName)).toEqual([toolName])
    },
  )

  it('sends each request to the right tool, whatever the words it shares with another', () => {
    const callOf = (text: string) => offlineReplyTo({ skills, text }).toolCalls.map((call) => call.toolName)
    expect(callOf('Book a flight from NYC to LAX')).toEqual(['book_flight'])
    expect(callOf("Let's play tic-tac-toe")).toEqual(['tictactoe'])
    expect(callOf('Pick a card and give me advice')).toEqual(['pick_card'])
    expect(callOf('Reserve a table for two at 8pm')).not.toContain('book_flight')
  })

  it('answers a sample with "recommend", "tip" or "advice" by the skill of the tool that asked', () => {
    const prompt = 'Any tip or advice? What would you recommend?'
    expect(offlineSampleAnswer({ skills, toolName: 'book_flight', prompt })).toMatch(/airport|Arrive|land/)
    expect(offlineSampleAnswer({ skills, toolName: 'pick_card', prompt })).toMatch(/^About “/)
    expect(offlineSampleAnswer({ skills, toolName: 'tictactoe', prompt })).toMatch(/^About “/)
  })

  it('sums up `status: cancelled` by the skill of the tool that returned it', () => {
    expect(offlineSummaryOf({ skills, toolName: 'book_flight', result: { status: 'cancelled', step: 'flight' } })).toMatch(/^Nothing was booked/)
    expect(offlineSummaryOf({ skills, toolName: 'pick_card', result: { status: 'cancelled' } })).toMatch(/^No card was picked/)
    expect(offlineSummaryOf({ skills, toolName: 'a_tool_with_no_skill', result: { status: 'cancelled' } })).toBe(
      'The a_tool_with_no_skill tool returned: {"status":"cancelled"}',
    )
  })

  it(`makes at most ${MAX_TOOL_CALLS_PER_STEP} calls for a message that asks for a thousand trips`, () => {
    const stops = Array.from({ length: 1000 }, (_, index) => `Town${index.toString(36)}x`).join(' to ')
    expect(offlineReplyTo({ skills, text: `Book flights from ${stops}` }).toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP)
  })

  // Bounds on CPU time (the least of 5 runs): a quadratic parse of 200 KB costs seconds of it on
  // every run, while a machine busy with other work adds none.
  it.each([
    ['"from A to B to C …"', `Book a flight ${'from Alpha to Beta to Gamma '.repeat(8000)}`],
    ['"*a "', `Book a flight ${'*a '.repeat(70_000)}`],
    ['"from" without "to"', `Book a flight ${'from '.repeat(40_000)}`],
    ['one long word', `Book a flight from ${'x'.repeat(200_000)} to LAX`],
    ['tips and places', `Any travel tips for visiting ${'Paris '.repeat(35_000)}`],
    ['card words', `Pick ${'seven '.repeat(35_000)} cards`],
    ['boards', `Let's play tic-tac-toe ${'X | 2 | O\n'.repeat(20_000)}`],
  ])('decides on a 200 KB message of %s well under 50 ms', (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(200_000)
    expect(leastCpuMsOf(() => offlineReplyTo({ skills, text }), 5)).toBeLessThan(50)
  })

  it('answers a 200 KB sample, structured or not, well under 50 ms', () => {
    const prompt = `${'1. Ace of Spades (A♠)\n'.repeat(10_000)}`
    const schema = { type: 'object', properties: { favourite: { type: 'integer', minimum: 1, maximum: 10 } } }
    for (const { name: toolName } of plugins) {
      const answer = () => {
        offlineSampleAnswer({ skills, toolName, prompt, system: `tic-tac-toe ${'X | 2 | O\n'.repeat(20_000)}` })
        offlineSampleAnswer({ skills, toolName, prompt, schema })
      }
      expect(leastCpuMsOf(answer, 5)).toBeLessThan(50)
    }
  })

  it('streams through the AI SDK with the app’s skills', async () => {
    const model = createOfflineModel({ delayMs: 0, skills })
    const { content } = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Pick a card' }] }], tools: [{ type: 'function', name: 'pick_card', inputSchema: {} }] })
    expect(content.find((part) => part.type === 'tool-call')).toMatchObject({ toolName: 'pick_card', input: '{"count":5,"analyze":false}' })
  })
})
