import { generateText, jsonSchema, streamText, tool, type ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createOfflineModel, MAX_TOOL_CALLS_PER_STEP } from '@/lib/models'
import { offlineReplyTo, offlineSampleAnswer, offlineSummaryOf } from '@/lib/models/testing/offline-replies'
import { bookFlightOffline } from './offline'

const bookFlight = tool({
  description: 'Book a flight for the user',
  inputSchema: jsonSchema<{ from: string; destination: string }>({
    type: 'object',
    properties: { from: { type: 'string' }, destination: { type: 'string' } },
    required: ['from', 'destination'],
    additionalProperties: false,
  }),
})
const tools = { book_flight: bookFlight }
const skills = [bookFlightOffline]
const CALL_ID = /^call_[A-Za-z0-9_-]{24}$/

const confirmed = {
  status: 'confirmed',
  ticketNumber: 'TKT-ABC123',
  flight: {
    id: 'SH-142',
    airline: 'SkyHigh Airways',
    flightNumber: 'SH 142',
    from: 'NYC',
    to: 'LAX',
    departure: '08:00',
    arrival: '11:15',
    durationMinutes: 375,
    price: 299,
  },
  seat: '12C',
  price: 299,
  tip: 'Arrive at LAX at least two hours early.',
}

/** A conversation in which book_flight was called once per result and answered with it. */
function afterToolResults(outputs: Array<{ type: 'json'; value: object } | { type: 'text'; value: string }>): ModelMessage[] {
  const ids = outputs.map((_, index) => `call_${index}`)
  return [
    { role: 'user', content: 'Book a flight from NYC to LAX' },
    {
      role: 'assistant',
      content: ids.map((toolCallId) => ({ type: 'tool-call' as const, toolCallId, toolName: 'book_flight', input: { from: 'NYC', destination: 'LAX' } })),
    },
    {
      role: 'tool',
      content: outputs.map((output, index) => ({ type: 'tool-result' as const, toolCallId: ids[index], toolName: 'book_flight', output: output as never })),
    },
  ]
}

describe('the offline model with the book_flight skill', () => {
  it('calls book_flight once for a one-trip request', async () => {
    const result = streamText({ model: createOfflineModel({ delayMs: 0, skills }), tools, prompt: 'Book a flight from NYC to LAX' })

    const toolCalls = await result.toolCalls
    expect(toolCalls).toHaveLength(1)
    expect(toolCalls[0]).toMatchObject({ toolName: 'book_flight', input: { from: 'NYC', destination: 'LAX' } })
    expect(toolCalls[0].toolCallId).toMatch(CALL_ID)
    expect(await result.finishReason).toBe('tool-calls')
    expect(await result.text).toBe('Let me find flights from NYC to LAX.')
  })

  it('calls book_flight twice, with distinct ids, for a two-trip request', async () => {
    const result = streamText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      prompt: 'Book flights from NYC to LAX and from LAX to SEA',
    })

    const toolCalls = await result.toolCalls
    expect(toolCalls.map((call) => call.input)).toEqual([
      { from: 'NYC', destination: 'LAX' },
      { from: 'LAX', destination: 'SEA' },
    ])
    expect(toolCalls[0].toolCallId).not.toBe(toolCalls[1].toolCallId)
    expect(toolCalls.every((call) => CALL_ID.test(call.toolCallId))).toBe(true)
    expect((await result.steps).length).toBe(1)
  })

  it('returns the same tool calls from generateText', async () => {
    const { toolCalls, finishReason, usage } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      prompt: 'book me a flight from New York to Los Angeles',
    })
    expect(toolCalls.map((call) => call.input)).toEqual([{ from: 'New York', destination: 'Los Angeles' }])
    expect(finishReason).toBe('tool-calls')
    expect(usage.inputTokens).toBeGreaterThan(0)
    expect(usage.outputTokens).toBeGreaterThan(0)
  })

  it('summarises a confirmed booking with ticket, seat and price', async () => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      messages: afterToolResults([{ type: 'json', value: confirmed }]),
    })
    expect(text).toContain('Your flight is booked!')
    expect(text).toContain('TKT-ABC123')
    expect(text).toContain('SkyHigh Airways SH 142 from NYC to LAX')
    expect(text).toContain('departing 08:00')
    expect(text).toContain('12C')
    expect(text).toContain('$299')
    expect(text).toContain('Travel tip: Arrive at LAX at least two hours early.')
  })

  it('reads a booking result sent as JSON text too', async () => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      messages: afterToolResults([{ type: 'text', value: JSON.stringify(confirmed) }]),
    })
    expect(text).toContain('TKT-ABC123')
  })

  it.each([
    ['flight', 'flight selection'],
    ['seat', 'seat selection'],
  ])('says nothing was booked when the %s step was cancelled', async (step, wording) => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      messages: afterToolResults([{ type: 'json', value: { status: 'cancelled', step, message: 'The user cancelled.' } }]),
    })
    expect(text).toMatch(/^Nothing was booked/)
    expect(text).toContain(wording)
    expect(text).toContain('ask again')
  })

  it('repeats the message of a failed tool', async () => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      messages: afterToolResults([{ type: 'text', value: 'Error: Plugin session was lost. Please retry the operation.' }]),
    })
    expect(text).toBe('Sorry, the book_flight tool failed: Plugin session was lost. Please retry the operation.')
  })

  it('summarises parallel results one by one, in order', async () => {
    const second = { ...confirmed, ticketNumber: 'TKT-XYZ789', seat: '3A' }
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      tools,
      messages: afterToolResults([
        { type: 'json', value: confirmed },
        { type: 'json', value: second },
        { type: 'json', value: { status: 'cancelled', step: 'seat', message: 'Cancelled.' } },
        { type: 'json', value: { weather: 'sunny' } },
      ]),
    })
    const paragraphs = text.split('\n\n')
    expect(paragraphs).toHaveLength(4)
    expect(paragraphs[0]).toContain('TKT-ABC123')
    expect(paragraphs[1]).toContain('TKT-XYZ789')
    expect(paragraphs[1]).toContain('3A')
    expect(paragraphs[2]).toMatch(/^Nothing was booked/)
    expect(paragraphs[3]).toBe('The book_flight tool returned: {"weather":"sunny"}')
  })

  it('answers its tool\'s tip request with a tip naming the destination', async () => {
    const model = createOfflineModel({ delayMs: 0, skills })
    const tipFor = async (destination: string) =>
      (
        await generateText({
          model,
          prompt: `Give one short, practical travel tip for a traveller arriving at ${destination} airport.`,
          providerOptions: { offline: { toolName: 'book_flight' } },
        })
      ).text

    const lax = await tipFor('LAX')
    expect(lax).toContain('LAX')
    expect(await tipFor('LAX')).toBe(lax)

    const tips = await Promise.all(['LAX', 'SEA', 'JFK', 'SFO', 'Paris', 'Tokyo'].map(async (place) => {
      const tip = await tipFor(place)
      expect(tip).toContain(place)
      return tip.replaceAll(place, '…')
    }))
    expect(new Set(tips).size).toBeGreaterThan(1)
  })

  it('says what it can do otherwise', async () => {
    const { text, toolCalls, finishReason } = await generateText({ model: createOfflineModel({ delayMs: 0, skills }), tools, prompt: 'What is the weather like?' })
    expect(text).toContain("I'm the offline assistant — no API key needed.")
    expect(text).toContain('Book a flight from NYC to LAX')
    expect(text).not.toContain('tic-tac-toe')
    expect(toolCalls).toEqual([])
    expect(finishReason).toBe('stop')
  })

})

describe('the book_flight skill', () => {
  const ask = (text: string, options: { tools?: string[]; toolsOff?: boolean } = {}) => offlineReplyTo({ skills, text, ...options })

  it('calls book_flight with JSON-string inputs', () => {
    expect(ask('Book a flight from NYC to LAX')).toEqual({
      text: 'Let me find flights from NYC to LAX.',
      toolCalls: [{ toolName: 'book_flight', input: '{"from":"NYC","destination":"LAX"}' }],
    })
  })

  it('does not call tools when tools are off, or book_flight is not offered', () => {
    expect(ask('Book a flight from NYC to LAX', { toolsOff: true }).toolCalls).toEqual([])
    const withoutBooking = ask('Book a flight from NYC to LAX', { tools: ['check_weather'] })
    expect(withoutBooking.toolCalls).toEqual([])
    expect(withoutBooking.text).toContain("booking isn't available")
  })

  it('asks where from and where to when the route is missing', () => {
    const reply = ask('Book a flight to LAX')
    expect(reply.toolCalls).toEqual([])
    expect(reply.text).toContain('where from, and where to?')
  })

  it('greets back, naming what it can do', () => {
    expect(ask('Hi there').text).toMatch(/^Hello! I'm the offline assistant — no API key needed\. I can book flights \(try “Book a flight from NYC to LAX”/)
  })

  it('answers a travel question in the chat with a tip, without booking', () => {
    expect(ask('Any tips for travelling to Lisbon?')).toEqual({ text: expect.stringContaining('Lisbon'), toolCalls: [] })
  })

  it(`books at most ${MAX_TOOL_CALLS_PER_STEP} trips of a long itinerary, and says so`, () => {
    const places = Array.from({ length: 30 }, (_, index) => `City${String.fromCharCode(65 + (index % 26))}${index}`)
    const reply = ask(`Book flights from ${places.join(' to ')}`)
    expect(reply.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP)
    expect(reply.text).toContain(`the first ${MAX_TOOL_CALLS_PER_STEP} of the 29 trips you asked for`)
  })

  it('does not take "Reserve a table…" for a flight', () => {
    for (const text of ['Reserve a table for two at 8pm', "Book a table at Luigi's", 'Reserve a table at Luigi’s from Monday to Friday']) {
      expect(ask(text).toolCalls).toEqual([])
      expect(ask(text).text).not.toContain('flight —')
    }
  })

  it('answers only the samples of its own tool with a travel tip', () => {
    expect(offlineSampleAnswer({ skills, toolName: 'book_flight', prompt: 'Give one short, practical travel tip for a traveller arriving at SEA airport.' })).toContain('SEA')
    expect(offlineSampleAnswer({ skills, toolName: 'reserve_table', prompt: 'What dish would you recommend? Any tip?' })).toMatch(/^About “What dish/)
  })

  it('sums up only its own results: another tool\'s "cancelled" is not a cancelled booking', () => {
    expect(offlineSummaryOf({ skills, toolName: 'book_flight', result: { status: 'cancelled', step: 'seat' } })).toMatch(/^Nothing was booked/)
    expect(offlineSummaryOf({ skills, toolName: 'reserve_table', result: { status: 'cancelled' } })).toBe('The reserve_table tool returned: {"status":"cancelled"}')
  })
})
