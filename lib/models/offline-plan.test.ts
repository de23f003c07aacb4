import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { planOfflineReply, type OfflineCallOptions } from './offline-plan'
import { MAX_TOOL_CALLS_PER_STEP, type OfflineSkill } from './offline-skill'

function functionTool(name: string): LanguageModelV3FunctionTool {
  return { type: 'function', name, inputSchema: { type: 'object', properties: {} } }
}

/** A skill that hears `word`, with the given confidence; its calls carry the word. */
function skill(toolName: string, word: RegExp, confidence = 1, extra: Partial<OfflineSkill> = {}): OfflineSkill {
  return {
    toolName,
    example: `do ${toolName}`,
    recognise: ({ text }) => (word.test(text) ? { confidence, text: `${toolName} it is.`, calls: [{ via: toolName }] } : undefined),
    ...extra,
  }
}

const flights = skill('book_flight', /\b(?:book|reserve)\b/i, 0.3, { answerSample: () => 'Arrive two hours early.' })
const tables = skill('reserve_table', /\breserve a table\b/i, 1, { answerSample: () => 'Try the risotto.' })

function ask(text: string, { skills, ...options }: Omit<Partial<LanguageModelV3CallOptions>, 'prompt'> & { skills: OfflineSkill[] }) {
  return planOfflineReply({ options: { prompt: [{ role: 'user', content: [{ type: 'text', text }] }], ...options }, skills })
}

describe('planOfflineReply', () => {
  it('says what it can do with exactly the tools on offer, from their skills', () => {
    const skills = [flights, tables]
    expect(ask('What can you do?', { skills, tools: [functionTool('book_flight'), functionTool('reserve_table')] }).text).toBe(
      "I'm the offline assistant — no API key needed. I can do book_flight and do reserve_table.",
    )
    expect(ask('What can you do?', { skills, tools: [functionTool('reserve_table')] }).text).toBe(
      "I'm the offline assistant — no API key needed. I can do reserve_table.",
    )
    expect(ask('Hi', { skills, tools: [] }).text).toBe(
      "Hello! I'm the offline assistant — no API key needed. No tools are on offer right now, so I can only talk.",
    )
  })

  it('names the tools on offer that no skill describes (another server’s), counting those past five', () => {
    const skills = [flights]
    expect(ask('Hi', { skills, tools: [functionTool('check_weather')] }).text).toBe(
      "Hello! I'm the offline assistant — no API key needed. I can use the tool check_weather (name one, or type / to call it yourself).",
    )
    const others = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => functionTool(`files__${name}`))
    expect(ask('What can you do?', { skills, tools: [functionTool('book_flight'), ...others] }).text).toBe(
      "I'm the offline assistant — no API key needed. I can do book_flight and use the tools files__a, files__b, files__c, files__d, files__e and 2 more (name one, or type / to call it yourself).",
    )
  })

  it('calls the tool of the skill that recognised the message, with JSON-string inputs', () => {
    expect(ask('Book it', { skills: [flights], tools: [functionTool('book_flight')] })).toEqual({
      text: 'book_flight it is.',
      toolCalls: [{ toolName: 'book_flight', input: '{"via":"book_flight"}' }],
    })
  })

  it('lets the most confident skill answer, whatever the order of the list', () => {
    const tools = [functionTool('book_flight'), functionTool('reserve_table')]
    for (const skills of [[flights, tables], [tables, flights]]) {
      expect(ask('Reserve a table for two at 8', { skills, tools }).toolCalls).toEqual([{ toolName: 'reserve_table', input: '{"via":"reserve_table"}' }])
      expect(ask('Book it', { skills, tools }).toolCalls[0]?.toolName).toBe('book_flight')
    }
  })

  it('breaks a tie for the skill whose tool is on offer, then for the one listed first', () => {
    const first = skill('first', /\bgo\b/i)
    const second = skill('second', /\bgo\b/i)
    expect(ask('go', { skills: [first, second], tools: [functionTool('second')] }).toolCalls[0]?.toolName).toBe('second')
    expect(ask('go', { skills: [first, second], tools: [functionTool('first'), functionTool('second')] }).toolCalls[0]?.toolName).toBe('first')
  })

  it('ignores a confidence outside (0, 1]', () => {
    const loud = skill('loud', /\bgo\b/i, 5)
    const quiet = skill('quiet', /\bgo\b/i, 0.2)
    expect(ask('go', { skills: [loud, quiet], tools: [functionTool('loud'), functionTool('quiet')] }).toolCalls[0]?.toolName).toBe('quiet')
  })

  it('says the tool is not available when it is not offered or tool calls are off', () => {
    const withUnavailable = { ...flights, recognise: () => ({ confidence: 1, text: 'Booking.', calls: [{}], unavailable: 'No booking today.' }) }
    expect(ask('Book it', { skills: [withUnavailable], tools: [functionTool('book_flight')], toolChoice: { type: 'none' } })).toEqual({
      text: 'No booking today.',
      toolCalls: [],
    })
    expect(ask('Book it', { skills: [flights], tools: [functionTool('check_weather')] })).toEqual({
      text: "I'd like to help with that, but the book_flight tool isn't available in this conversation right now.",
      toolCalls: [],
    })
  })

  it(`makes at most ${MAX_TOOL_CALLS_PER_STEP} calls in one step, however many a skill asks for`, () => {
    const greedy: OfflineSkill = { toolName: 'many', example: 'many', recognise: () => ({ confidence: 1, text: 'Lots.', calls: Array.from({ length: 1000 }, (_, n) => ({ n })) }) }
    const reply = ask('go', { skills: [greedy], tools: [functionTool('many')] })
    expect(reply.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP)
    expect(reply.toolCalls.at(-1)?.input).toBe(`{"n":${MAX_TOOL_CALLS_PER_STEP - 1}}`)
  })

  it('tells each skill how many calls it may make', () => {
    let told: number | undefined
    ask('go', { skills: [{ toolName: 'x', example: 'x', recognise: ({ maxCalls }) => ((told = maxCalls), undefined) }] })
    expect(told).toBe(MAX_TOOL_CALLS_PER_STEP)
  })

  it('answers a sample with the skill of the tool that asked, not by the words in it', () => {
    const sample = (toolName: string | undefined): OfflineCallOptions => ({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'What would you recommend? Any tip or advice?' }] }],
      ...(toolName ? { providerOptions: { offline: { toolName } } } : {}),
    })
    const skills = [flights, tables]
    expect(planOfflineReply({ options: sample('reserve_table'), skills }).text).toBe('Try the risotto.')
    expect(planOfflineReply({ options: sample('book_flight'), skills }).text).toBe('Arrive two hours early.')
    expect(planOfflineReply({ options: sample('check_weather'), skills }).text).toMatch(/^About “What would you recommend\? Any tip or advice\?”/)
    // Without tools or a tool that asked, it is a plain question.
    expect(planOfflineReply({ options: sample(undefined), skills }).text).toMatch(/^About “What would you recommend/)
  })

  it('answers a structured sample with its tool skill\'s JSON, else with a value of the schema', () => {
    const schema = { type: 'object', properties: { score: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['score'] }
    const rater: OfflineSkill = { toolName: 'rate', example: 'rate', answerSample: ({ schema: asked }) => (asked ? '{"score":5}' : undefined) }
    const options = (toolName?: string): OfflineCallOptions => ({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Rate this' }] }],
      responseFormat: { type: 'json', schema: schema as never },
      ...(toolName ? { providerOptions: { offline: { toolName } } } : {}),
    })
    expect(planOfflineReply({ options: options('rate'), skills: [rater] }).text).toBe('{"score":5}')
    expect(planOfflineReply({ options: options(), skills: [rater] }).text).toBe('{"score":3}')
  })

  it('sums up each result with its own tool\'s skill, and any other result as what it returned', () => {
    const cancelled = { status: 'cancelled' }
    const mine: OfflineSkill = { toolName: 'mine', example: 'mine', summarise: (result) => (JSON.stringify(result) === '{"status":"cancelled"}' ? 'Mine was cancelled.' : undefined) }
    const reply = planOfflineReply({
      skills: [mine],
      options: {
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'a', toolName: 'mine', output: { type: 'json', value: cancelled } },
              { type: 'tool-result', toolCallId: 'b', toolName: 'theirs', output: { type: 'json', value: cancelled } },
            ],
          },
        ],
      },
    })
    expect(reply.text).toBe('Mine was cancelled.\n\nThe theirs tool returned: {"status":"cancelled"}')
  })

  it('only acts on the latest user message', () => {
    const reply = planOfflineReply({
      skills: [flights],
      options: {
        tools: [functionTool('book_flight')],
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'Book it' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Which date?' }] },
        ],
      },
    })
    expect(reply.toolCalls).toEqual([])
  })

  it('summarises an error-text result and a denied execution', () => {
    const reply = planOfflineReply({
      skills: [flights],
      options: {
        tools: [functionTool('book_flight')],
        prompt: [
          { role: 'user', content: [{ type: 'text', text: 'Book it' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'a', toolName: 'book_flight', output: { type: 'error-text', value: 'Timed out.' } },
              { type: 'tool-result', toolCallId: 'b', toolName: 'book_flight', output: { type: 'execution-denied', reason: 'Not allowed' } },
            ],
          },
        ],
      },
    })
    expect(reply.text).toBe('Sorry, the book_flight tool failed: Timed out.\n\nThe book_flight tool was not run: Not allowed')
  })

  it('reads at most a few KB of a message', () => {
    let seen = 0
    const counting: OfflineSkill = { toolName: 'x', example: 'x', recognise: ({ text }) => ((seen = text.length), undefined) }
    ask('a'.repeat(200_000), { skills: [counting] })
    expect(seen).toBe(4096)
  })
})
