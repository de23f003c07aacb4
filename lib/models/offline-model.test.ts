import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { generateText, jsonSchema, streamText, tool } from 'ai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createOfflineModel, offlineDelayFromEnv } from './offline-model'
import type { OfflineSkill } from './offline-skill'

const echo = tool({
  description: 'Repeat a text',
  inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
})
const tools = { echo }
/** A skill as small as one can be: "echo <text>" calls `echo`. */
const echoSkill: OfflineSkill = {
  toolName: 'echo',
  example: 'repeat what you say (“Echo hello”)',
  recognise: ({ text }) => {
    const said = /^echo\s+(.+)$/i.exec(text)?.[1]
    return said ? { confidence: 1, text: 'Echoing.', calls: [{ text: said }] } : undefined
  },
}
const skills = [echoSkill]
const CALL_ID = /^call_[A-Za-z0-9_-]{24}$/

describe('offline model through the AI SDK', () => {
  it('calls the tool its skill recognises, with a random call id', async () => {
    const result = streamText({ model: createOfflineModel({ delayMs: 0, skills }), tools, prompt: 'Echo hello there' })
    const toolCalls = await result.toolCalls
    expect(toolCalls).toHaveLength(1)
    expect(toolCalls[0]).toMatchObject({ toolName: 'echo', input: { text: 'hello there' } })
    expect(toolCalls[0].toolCallId).toMatch(CALL_ID)
    expect(await result.finishReason).toBe('tool-calls')
    expect(await result.text).toBe('Echoing.')
  })

  it('makes new tool-call ids on every call', async () => {
    const model = createOfflineModel({ delayMs: 0, skills })
    const ids = new Set<string>()
    for (let round = 0; round < 20; round++) {
      const { toolCalls } = await generateText({ model, tools, prompt: 'Echo hi' })
      for (const call of toolCalls) ids.add(call.toolCallId)
    }
    expect(ids.size).toBe(20)
  })

  it('gives a short answer to a question when no tools are offered, naming what was asked', async () => {
    const { text } = await generateText({ model: createOfflineModel({ delayMs: 0 }), prompt: 'Summarise the history of aviation' })
    expect(text).toContain('Summarise the history of aviation')
  })

  it('says what it can do otherwise', async () => {
    const { text, toolCalls, finishReason } = await generateText({ model: createOfflineModel({ delayMs: 0, skills }), tools, prompt: 'What is the weather like?' })
    expect(text).toBe("I'm the offline assistant — no API key needed. I can repeat what you say (“Echo hello”).")
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
