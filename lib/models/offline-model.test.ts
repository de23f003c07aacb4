import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { generateText, jsonSchema, streamText, tool, type ModelMessage } from 'ai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createOfflineModel, offlineDelayFromEnv } from './offline-model'

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

describe('offline model through the AI SDK', () => {
  it('calls book_flight once for a one-trip request', async () => {
    const result = streamText({ model: createOfflineModel({ delayMs: 0 }), tools, prompt: 'Book a flight from NYC to LAX' })

    const toolCalls = await result.toolCalls
    expect(toolCalls).toHaveLength(1)
    expect(toolCalls[0]).toMatchObject({ toolName: 'book_flight', input: { from: 'NYC', destination: 'LAX' } })
    expect(toolCalls[0].toolCallId).toMatch(CALL_ID)
    expect(await result.finishReason).toBe('tool-calls')
    expect(await result.text).toBe('Let me find flights from NYC to LAX.')
  })

  it('calls book_flight twice, with distinct ids, for a two-trip request', async () => {
    const result = streamText({
      model: createOfflineModel({ delayMs: 0 }),
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

  it('makes new tool-call ids on every call', async () => {
    const model = createOfflineModel({ delayMs: 0 })
    const ids = new Set<string>()
    for (let round = 0; round < 20; round++) {
      const { toolCalls } = await generateText({ model, tools, prompt: 'Book a flight from NYC to LAX' })
      for (const call of toolCalls) ids.add(call.toolCallId)
    }
    expect(ids.size).toBe(20)
  })

  it('returns the same tool calls from generateText', async () => {
    const { toolCalls, finishReason, usage } = await generateText({
      model: createOfflineModel({ delayMs: 0 }),
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
      model: createOfflineModel({ delayMs: 0 }),
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
      model: createOfflineModel({ delayMs: 0 }),
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
      model: createOfflineModel({ delayMs: 0 }),
      tools,
      messages: afterToolResults([{ type: 'json', value: { status: 'cancelled', step, message: 'The user cancelled.' } }]),
    })
    expect(text).toMatch(/^Nothing was booked/)
    expect(text).toContain(wording)
    expect(text).toContain('ask again')
  })

  it('repeats the message of a failed tool', async () => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0 }),
      tools,
      messages: afterToolResults([{ type: 'text', value: 'Error: Plugin session was lost. Please retry the operation.' }]),
    })
    expect(text).toBe('Sorry, the book_flight tool failed: Plugin session was lost. Please retry the operation.')
  })

  it('summarises parallel results one by one, in order', async () => {
    const second = { ...confirmed, ticketNumber: 'TKT-XYZ789', seat: '3A' }
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0 }),
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

  it('answers a tip request with a tip naming the destination', async () => {
    const model = createOfflineModel({ delayMs: 0 })
    const tipFor = async (destination: string) =>
      (await generateText({ model, prompt: `Give one short, practical travel tip for a traveller arriving at ${destination} airport.` })).text

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

  it('gives a short answer to another sampling prompt, naming what was asked', async () => {
    const { text } = await generateText({ model: createOfflineModel({ delayMs: 0 }), prompt: 'Summarise the history of aviation' })
    expect(text).toContain('Summarise the history of aviation')
  })

  it('says what it can do otherwise', async () => {
    const { text, toolCalls, finishReason } = await generateText({ model: createOfflineModel({ delayMs: 0 }), tools, prompt: 'What is the weather like?' })
    expect(text).toContain("I'm the offline assistant — no API key needed.")
    expect(text).toContain('Book a flight from NYC to LAX')
    expect(text).not.toContain('tic-tac-toe')
    expect(toolCalls).toEqual([])
    expect(finishReason).toBe('stop')
  })

  it('streams text in several deltas that join into the reply', async () => {
    const result = streamText({ model: createOfflineModel({ delayMs: 0 }), tools, prompt: 'Hello!' })
    const deltas: string[] = []
    for await (const delta of result.textStream) deltas.push(delta)

    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.join('')).toBe(await result.text)
    expect(deltas.join('')).toMatch(/^Hello! I'm the offline assistant/)
    expect((await result.usage).outputTokens).toBe(Math.ceil(deltas.join('').length / 4))
  })

  it('stops streaming when aborted', async () => {
    const full = await generateText({ model: createOfflineModel({ delayMs: 0 }), tools, prompt: 'Hello!' })
    const fullDeltaCount = Math.ceil((full.text.match(/\S+/g) ?? []).length / 3)

    const controller = new AbortController()
    const result = streamText({
      model: createOfflineModel({ delayMs: 5 }),
      tools,
      prompt: 'Hello!',
      abortSignal: controller.signal,
    })
    const types: string[] = []
    for await (const part of result.fullStream) {
      types.push(part.type)
      if (types.filter((type) => type === 'text-delta').length === 2) controller.abort()
    }

    expect(fullDeltaCount).toBeGreaterThan(6)
    expect(types.filter((type) => type === 'text-delta')).toHaveLength(2)
    expect(types.at(-1)).toBe('abort')
    expect(types).not.toContain('finish')
  })
})

describe('offline model stream pacing', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  const call = (prompt: string, abortSignal?: AbortSignal): LanguageModelV3CallOptions => ({
    prompt: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    abortSignal,
  })

  async function readAll(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<LanguageModelV3StreamPart[]> {
    const parts: LanguageModelV3StreamPart[] = []
    const reader = stream.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value)
    return parts
  }

  it('emits stream-start, text-start, deltas, text-end and finish with V3 usage', async () => {
    const { stream } = await createOfflineModel({ delayMs: 0 }).doStream(call('Hello'))
    const parts = await readAll(stream)
    const types = parts.map((part) => part.type)

    expect(types[0]).toBe('stream-start')
    expect(types[1]).toBe('text-start')
    expect(types.at(-2)).toBe('text-end')
    expect(types.at(-1)).toBe('finish')
    const finish = parts.at(-1)
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: expect.any(Number) }, outputTokens: { total: expect.any(Number), reasoning: 0 } },
    })
  })

  it('uses no timer at all when the delay is 0', async () => {
    vi.useFakeTimers()
    const { stream } = await createOfflineModel({ delayMs: 0 }).doStream(call('Hello'))
    const parts = await readAll(stream)
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(3)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('waits the delay between deltas', async () => {
    vi.useFakeTimers()
    const { stream } = await createOfflineModel({ delayMs: 25 }).doStream(call('Hello'))
    const reader = stream.getReader()
    const nextDelta = async () => {
      for (;;) {
        const { value } = await reader.read()
        if (!value || value.type === 'text-delta') return value
      }
    }

    expect(await nextDelta()).toMatchObject({ type: 'text-delta' })
    let second: LanguageModelV3StreamPart | undefined
    const reading = nextDelta().then((value) => (second = value))
    await vi.advanceTimersByTimeAsync(24)
    expect(second).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    await reading
    expect(second).toMatchObject({ type: 'text-delta' })
    await reader.cancel()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('errors with an AbortError and clears its timer when aborted mid-stream', async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    const { stream } = await createOfflineModel({ delayMs: 1000 }).doStream(call('Hello', controller.signal))
    const reader = stream.getReader()
    for (;;) {
      const { value } = await reader.read()
      if (value?.type === 'text-delta') break
    }

    const next = reader.read()
    await vi.advanceTimersByTimeAsync(0)
    expect(vi.getTimerCount()).toBe(1)
    controller.abort()
    await expect(next).rejects.toMatchObject({ name: 'AbortError' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('errors at once when the signal was aborted before the call', async () => {
    const { stream } = await createOfflineModel({ delayMs: 0 }).doStream(call('Hello', AbortSignal.abort()))
    await expect(readAll(stream)).rejects.toMatchObject({ name: 'AbortError' })
    await expect(createOfflineModel({ delayMs: 0 }).doGenerate(call('Hello', AbortSignal.abort()))).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('reads its default delay from OFFLINE_MODEL_DELAY_MS', () => {
    expect(offlineDelayFromEnv({ OFFLINE_MODEL_DELAY_MS: '0' })).toBe(0)
    expect(offlineDelayFromEnv({ OFFLINE_MODEL_DELAY_MS: '40' })).toBe(40)
    expect(offlineDelayFromEnv({})).toBe(25)
    expect(offlineDelayFromEnv({ OFFLINE_MODEL_DELAY_MS: 'soon' })).toBe(25)
    expect(offlineDelayFromEnv({ OFFLINE_MODEL_DELAY_MS: '-5' })).toBe(25)
  })
})
