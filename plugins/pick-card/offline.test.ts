import { generateText, jsonSchema, Output, tool, type ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createOfflineModel, createStructuredValue } from '@/lib/models'
import { offlineReplyTo, offlineSampleAnswer } from '@/lib/models/testing/offline-replies'
import { bookFlightOffline } from '../book-flight/offline'
import { cardRank, commentOnPickCard, parsePickCardRequest, pickCardOffline, readHandHints } from './offline'
import { analysisSchemaFor } from './tool'

const skills = [pickCardOffline]

function ask(text: string, tools = ['pick_card', 'book_flight']) {
  return offlineReplyTo({ skills: [pickCardOffline, bookFlightOffline], text, tools })
}

const CARDS_PROMPT = [
  'Here are 5 playing cards, numbered:',
  '1. Seven of Clubs (7♣)',
  '2. Queen of Hearts (Q♥)',
  '3. Two of Spades (2♠)',
  '4. Ten of Diamonds (10♦)',
  '5. Four of Hearts (4♥)',
  'Which card would you pick, and why?',
].join('\n')

describe('parsePickCardRequest', () => {
  it.each([
    ['Pick a card', { count: 5, analyze: false }],
    ['pick a card!', { count: 5, analyze: false }],
    ['Pick a card and analyze them', { count: 5, analyze: true }],
    ['Draw 7 cards', { count: 7, analyze: false }],
    ['draw seven cards and give me some advice', { count: 7, analyze: true }],
    ['Deal me 3 cards, which one should I pick? Help me choose', { count: 3, analyze: true }],
    ['Let me pick a card from 8', { count: 8, analyze: false }],
    ['Draw 40 cards', { count: 10, analyze: false }],
    ['Draw 1 card', { count: 2, analyze: false }],
  ])('%s', (text, expected) => {
    expect(parsePickCardRequest(text)).toEqual(expected)
  })

  it.each(['Hello', 'Book a flight from NYC to LAX', 'How do I pick a card?', 'My card was declined', 'Give me a travel tip for Lisbon'])(
    'is not a card request: %s',
    (text) => {
      expect(parsePickCardRequest(text)).toBeUndefined()
    },
  )
})

describe('the offline model and pick_card', () => {
  it('calls pick_card with the count and analyze flag, after a short text', () => {
    expect(ask('Pick a card')).toEqual({
      text: expect.stringContaining('5 cards'),
      toolCalls: [{ toolName: 'pick_card', input: '{"count":5,"analyze":false}' }],
    })
    expect(ask('Draw 7 cards and analyse them').toolCalls).toEqual([{ toolName: 'pick_card', input: '{"count":7,"analyze":true}' }])
    // "advice" would otherwise be a travel-tip request.
    expect(ask('Pick a card and give me advice').toolCalls).toEqual([{ toolName: 'pick_card', input: '{"count":5,"analyze":true}' }])
  })

  it('says the game is unavailable when pick_card is not offered or tools are off', () => {
    const reply = ask('Pick a card', ['book_flight'])
    expect(reply.toolCalls).toEqual([])
    expect(reply.text).toContain("isn't available")
    expect(offlineReplyTo({ skills, text: 'Pick a card', toolsOff: true }).toolCalls).toEqual([])
  })

  it('still books flights', () => {
    expect(ask('Book a flight from NYC to LAX').toolCalls).toEqual([{ toolName: 'book_flight', input: '{"from":"NYC","destination":"LAX"}' }])
  })
})

describe('commenting on a pick', () => {
  const queen = { rank: 'Q', suit: 'hearts' }
  const two = { rank: '2', suit: 'clubs' }

  it('congratulates a winner, consoles a loser, and notes no pick', () => {
    const won = commentOnPickCard({ status: 'picked', isWinner: true, picked: queen, secret: queen, pickedName: 'Queen of Hearts', secretName: 'Queen of Hearts' })
    expect(won).toContain('Queen of Hearts')
    expect(won).toContain('You win!')
    const lost = commentOnPickCard({ status: 'picked', isWinner: false, picked: two, secret: queen, pickedName: 'Two of Clubs', secretName: 'Queen of Hearts' })
    expect(lost).toContain('You picked the Two of Clubs, but the secret card was the Queen of Hearts')
    expect(lost).toContain('Not this time')
    expect(commentOnPickCard({ status: 'cancelled', message: 'No card was picked.' })).toMatch(/^No card was picked/)
  })

  it('comments through the model on a pick_card result, not as a cancelled booking', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Pick a card' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'pick_card', input: { count: 5, analyze: false } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'pick_card', output: { type: 'json', value: { status: 'cancelled', message: 'No card was picked.' } } }],
      },
    ]
    const tools = { pick_card: tool({ inputSchema: jsonSchema<{ count: number }>({ type: 'object' }) }) }
    const { text } = await generateText({ model: createOfflineModel({ delayMs: 0, skills: [bookFlightOffline, pickCardOffline] }), tools, messages })
    expect(text).toMatch(/^No card was picked/)
    expect(text).not.toMatch(/booked/)
  })
})

describe('structured output through the AI SDK', () => {
  it('answers a card analysis with JSON matching the schema, naming its favourite', async () => {
    const schema = z.object({
      summary: z.string(),
      favourite: z.number().int().min(1).max(3).describe('The number of the card you would pick'),
      reason: z.string().min(1),
    })
    const { output, text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      providerOptions: { offline: { toolName: 'pick_card' } },
      output: Output.object({ schema }),
      prompt: 'Analyse these cards:\n1. Two of Clubs (2♣)\n2. King of Spades (K♠)\n3. Five of Hearts (5♥)\nWhich would you pick?',
    })
    expect(JSON.parse(text)).toEqual(output)
    expect(output.favourite).toBe(2)
    expect(output.reason).toContain('King of Spades')
  })

  it('streams structured answers too', async () => {
    const model = createOfflineModel({ delayMs: 0, skills })
    const { stream } = await model.doStream({
      providerOptions: { offline: { toolName: 'pick_card' } },
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Rate this' }] }],
      responseFormat: { type: 'json', schema: { type: 'object', properties: { score: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['score'] } },
    })
    let text = ''
    const reader = stream.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) if (next.value.type === 'text-delta') text += next.value.delta
    expect(JSON.parse(text)).toEqual({ score: 3 })
  })
})

describe('the card analysis pick_card samples', () => {
  const analysis = z.object({
    summary: z.string().describe('One or two sentences about the hand as a whole'),
    favourite: z.number().int().min(1).max(5).describe('The number of the card you would pick'),
    reason: z.string().min(1).describe('Why that card, in one sentence'),
  })

  const fill = <S extends z.ZodType>(schema: S, prompt: string): z.output<S> =>
    schema.parse(JSON.parse(offlineSampleAnswer({ skills, toolName: 'pick_card', prompt, schema: z.toJSONSchema(schema) })))

  it('picks the highest card and gives a reason naming it', () => {
    const value = fill(analysis, CARDS_PROMPT)
    expect(value.favourite).toBe(2)
    expect(value.reason).toBe('The Queen of Hearts ranks highest of the 5 cards.')
    expect(value.summary).toBe('5 cards, three red and two black: the highest is the Queen of Hearts, the lowest the Two of Spades.')
  })

  it('stays within a narrower range than the list', () => {
    const narrow = z.object({ cardNumber: z.number().int().min(3).max(5) })
    const value = fill(narrow, CARDS_PROMPT)
    expect(value.cardNumber).toBeGreaterThanOrEqual(3)
    expect(value.cardNumber).toBeLessThanOrEqual(5)
  })

  it('answers the same prompt the same way, also through the tool\'s own schema', () => {
    expect(fill(analysis, CARDS_PROMPT)).toEqual(fill(analysis, CARDS_PROMPT))
    expect(fill(analysisSchemaFor(5), CARDS_PROMPT).favourite).toBe(2)
  })

  it('reads the hand: ranks in words and symbols, aces high', () => {
    expect(cardRank('Ace of Spades')).toBe(14)
    expect(cardRank('two of hearts')).toBe(2)
    expect(cardRank('Q♥')).toBe(12)
    expect(cardRank('(10♦)')).toBe(10)
    expect(cardRank('Paris')).toBeUndefined()
    expect(readHandHints(CARDS_PROMPT)).toMatchObject({ favourite: { number: 2, label: 'Queen of Hearts (Q♥)' }, noun: 'card' })
    expect(readHandHints('Where next?\n1. Paris\n2. Rome')).toEqual({})
    expect(createStructuredValue({ schema: { type: 'object', properties: { favourite: { type: 'integer', minimum: 1, maximum: 5 } } }, prompt: CARDS_PROMPT, hints: readHandHints(CARDS_PROMPT) })).toEqual({ favourite: 2 })
  })

  it('is asked only for its own tool: another tool\'s "recommend" prompt is not a hand', () => {
    expect(offlineSampleAnswer({ skills: [pickCardOffline, bookFlightOffline], toolName: 'pick_card', prompt: 'Any advice? What would you recommend?' })).toMatch(/^About “/)
  })
})
