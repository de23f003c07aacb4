import { generateText, jsonSchema, streamText, tool } from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createOpenAIModel } from './openai-model'
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type ScriptedReply } from './testing/openai-compatible-server'

const tools = {
  book_flight: tool({
    description: 'Book a flight for the user',
    inputSchema: jsonSchema<{ from: string; destination: string }>({
      type: 'object',
      properties: { from: { type: 'string' }, destination: { type: 'string' } },
      required: ['from', 'destination'],
      additionalProperties: false,
    }),
  }),
}

describe('createOpenAIModel against an OpenAI-compatible server', () => {
  let server: OpenAICompatibleServer
  let reply: ScriptedReply = {}

  beforeAll(async () => {
    server = await startOpenAICompatibleServer({ respond: () => reply })
  })
  afterAll(async () => {
    await server.close()
  })
  beforeEach(() => {
    server.requests.length = 0
  })

  const model = () => createOpenAIModel({ apiKey: 'test', baseURL: server.url, model: 'test-model' })

  it('streams text in several pieces', async () => {
    reply = { text: 'Hello from the scripted server, streamed in several small pieces.' }
    const result = streamText({ model: model(), system: 'Be brief.', prompt: 'Say hello' })

    const deltas: string[] = []
    for await (const delta of result.textStream) deltas.push(delta)
    expect(deltas.length).toBeGreaterThan(2)
    expect(deltas.join('')).toBe(reply.text)
    expect(await result.finishReason).toBe('stop')
    expect((await result.usage).outputTokens).toBeGreaterThan(0)

    const [request] = server.requests
    expect(request).toMatchObject({ model: 'test-model', stream: true, stream_options: { include_usage: true } })
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ])
  })

  it('streams tool calls with their arguments and sends the tool definitions', async () => {
    reply = {
      text: 'Booking both.',
      toolCalls: [
        { id: 'call_one', name: 'book_flight', arguments: { from: 'NYC', destination: 'LAX' } },
        { id: 'call_two', name: 'book_flight', arguments: { from: 'LAX', destination: 'SEA' } },
      ],
    }
    const result = streamText({ model: model(), tools, prompt: 'Book flights from NYC to LAX and from LAX to SEA' })

    const toolCalls = await result.toolCalls
    expect(toolCalls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }))).toEqual([
      { toolCallId: 'call_one', toolName: 'book_flight', input: { from: 'NYC', destination: 'LAX' } },
      { toolCallId: 'call_two', toolName: 'book_flight', input: { from: 'LAX', destination: 'SEA' } },
    ])
    expect(await result.text).toBe('Booking both.')
    expect(await result.finishReason).toBe('tool-calls')

    const [request] = server.requests
    expect(request.messages).toEqual([{ role: 'user', content: 'Book flights from NYC to LAX and from LAX to SEA' }])
    expect(request.tools).toHaveLength(1)
    expect(request.tools?.[0]).toMatchObject({
      type: 'function',
      function: {
        name: 'book_flight',
        description: 'Book a flight for the user',
        parameters: { type: 'object', required: ['from', 'destination'] },
      },
    })
  })

  it('sends tool results back as tool messages', async () => {
    reply = { text: 'Your flight is booked.' }
    const { text } = await generateText({
      model: model(),
      tools,
      messages: [
        { role: 'user', content: 'Book a flight from NYC to LAX' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_one', toolName: 'book_flight', input: { from: 'NYC', destination: 'LAX' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_one', toolName: 'book_flight', output: { type: 'json', value: { status: 'confirmed' } } }] },
      ],
    })

    expect(text).toBe('Your flight is booked.')
    const messages = server.requests[0].messages
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_one', type: 'function', function: { name: 'book_flight', arguments: '{"from":"NYC","destination":"LAX"}' } }],
    })
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_one', content: '{"status":"confirmed"}' })
  })

  it('answers generateText without streaming', async () => {
    reply = { text: 'Plain answer.', toolCalls: [{ id: 'call_plain', name: 'book_flight', arguments: { from: 'BOS', destination: 'ORD' } }] }
    const result = await generateText({ model: model(), tools, prompt: 'Book a flight from BOS to ORD' })

    expect(result.text).toBe('Plain answer.')
    expect(result.toolCalls.map((call) => [call.toolCallId, call.input])).toEqual([['call_plain', { from: 'BOS', destination: 'ORD' }]])
    expect(result.finishReason).toBe('tool-calls')
    expect(result.usage.inputTokens).toBeGreaterThan(0)
    expect(server.requests[0].stream).toBeFalsy()
  })
})

describe('startOpenAICompatibleServer', () => {
  let server: OpenAICompatibleServer
  beforeAll(async () => {
    server = await startOpenAICompatibleServer({ respond: () => ({ text: 'ok' }) })
  })
  afterAll(async () => {
    await server.close()
  })

  const post = (body: string) =>
    fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

  it.each([
    ['no messages', JSON.stringify({ model: 'm' }), /messages/],
    ['empty messages', JSON.stringify({ model: 'm', messages: [] }), /messages/],
    ['a message without a role', JSON.stringify({ model: 'm', messages: [{ content: 'hi' }] }), /role/],
    ['no model', JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), /model/],
    ['invalid JSON', '{"model":', /JSON/],
  ])('answers 400 to a body with %s, and does not record it', async (_, body, message) => {
    const response = await post(body)
    expect(response.status).toBe(400)
    const json = (await response.json()) as { error: { message: string; type: string } }
    expect(json.error.message).toMatch(message)
    expect(json.error.type).toBe('invalid_request_error')
    expect(server.requests).toHaveLength(0)
  })

  it('answers 404 to other routes', async () => {
    const response = await fetch(`${server.url}/models`)
    expect(response.status).toBe(404)
  })

  it('streams server-sent chunks ending in [DONE]', async () => {
    const response = await post(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }))
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const events = (await response.text()).trim().split('\n\n')
    expect(events.at(-1)).toBe('data: [DONE]')
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')))
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'm', choices: [{ delta: { role: 'assistant' } }] })
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop')
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false)
  })

  it('answers 500 when the script throws', async () => {
    const failing = await startOpenAICompatibleServer({
      respond: () => {
        throw new Error('script broke')
      },
    })
    try {
      const response = await fetch(`${failing.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: { message: 'script broke' } })
    } finally {
      await failing.close()
    }
  })
})
