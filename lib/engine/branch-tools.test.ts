import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createOpenAIModel } from '../models'
import type { ChatCompletionRequestBody, ScriptedReply } from '../models/testing/openai-compatible-server'
import { createBranchTool, createMcpTool, type AnyMcpTool, type BranchLimits, type ExtendedMessage } from '../tools'
import { createChatServer } from './chat-server'
import { elicitRequests, eventsOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

/** The chat on a local OpenAI-compatible server: `respond` answers the chat's turns and the tool's samples. */
async function start(
  tool: AnyMcpTool,
  respond: (body: ChatCompletionRequestBody) => ScriptedReply | Promise<ScriptedReply>,
  branchLimits?: BranchLimits,
) {
  scripted = await startScriptedChat({ respond, tools: [tool], branchLimits })
  return scripted.client
}

/** Chat turns carry tools; a tool's samples do not. The first turn calls the tool, the last summarises. */
function chatTurn(body: ChatCompletionRequestBody, toolName: string): ScriptedReply | undefined {
  if (!body.tools) return undefined
  return body.messages.at(-1)!.role === 'tool'
    ? { text: `Result: ${String(body.messages.at(-1)!.content)}` }
    : { toolCalls: [{ id: 'call_1', name: toolName, arguments: {} }] }
}

describe('sampling from a tool in the chat', () => {
  const guess = createMcpTool('guess')
    .elicits({ pickNumber: z.object({ n: z.number().int() }) })
    .execute(function* (_params, ctx) {
      const history: ExtendedMessage[] = []
      const answer = yield* ctx.elicit('pickNumber', { message: 'Pick a number', range: [1, 10], secret: 7 })
      if (answer.action !== 'accept') return 'no number'
      history.push(...answer.exchange.withArguments((context) => ({ range: context.range })))
      const verdict = yield* ctx.sample({
        system: 'You judge guesses.',
        messages: [...history, { role: 'user', content: 'Was that a good guess?' }],
        schema: z.object({ good: z.boolean(), why: z.string() }),
      })
      return verdict.value
    })

  it('sends the exchange as real tool-call and tool-result messages, and asks for JSON by schema', async () => {
    const client = await start(guess, (body) => chatTurn(body, 'guess') ?? { text: '{"good": true, "why": "Seven is lucky"}' })
    const [request] = elicitRequests((await client.say('Let me guess')).events)
    const done = await client.answer([{ request: request!, result: { action: 'accept', content: { n: 7 } } }])
    expect(eventsOf(done.events, 'tool_result')[0]).toMatchObject({ content: '{"good":true,"why":"Seven is lucky"}' })
    const exchangeId = `elicit_${request!.callId}_1`

    const sampling = scripted!.server.requests.find((body) => !body.tools)!
    expect(sampling.messages).toEqual([
      { role: 'system', content: 'You judge guesses.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: exchangeId, type: 'function', function: { name: 'pickNumber', arguments: '{"range":[1,10]}' } }],
      },
      { role: 'tool', tool_call_id: exchangeId, content: '{"n":7}' },
      { role: 'user', content: 'Was that a good guess?' },
    ])
    expect(JSON.stringify(sampling)).not.toContain('secret')
    expect(sampling.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object', properties: { good: { type: 'boolean' }, why: { type: 'string' } } } },
    })
  })

  it('fails the tool call with a clear error when the model’s JSON does not fit the schema', async () => {
    const client = await start(guess, (body) => chatTurn(body, 'guess') ?? { text: 'Yes, a fine guess.' })
    const [request] = elicitRequests((await client.say('Let me guess')).events)
    const done = await client.answer([{ request: request!, result: { action: 'accept', content: { n: 3 } } }])
    expect(eventsOf(done.events, 'tool_error')[0]).toMatchObject({
      name: 'guess',
      message: `The model's answer is not JSON: "Yes, a fine guess."`,
    })
  })
})

describe('branches in the chat', () => {
  it('shows a tool the conversation and system prompt it was called from', async () => {
    const witness = createBranchTool('witness').execute(function* (_params, ctx) {
      return { depth: ctx.depth, system: ctx.parentSystemPrompt?.slice(0, 30), parent: ctx.parentMessages }
    })
    const client = await start(witness, (body) => chatTurn(body, 'witness')!)
    const turn = await client.say('What do you see?')
    const seen = JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)
    const callId = eventsOf(turn.events, 'tool_calls')[0]!.calls[0]!.id
    expect(callId).toMatch(/^call_1_/)
    expect(seen).toEqual({
      depth: 0,
      system: 'You are a helpful assistant in',
      parent: [
        { role: 'user', content: 'What do you see?' },
        { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'witness', arguments: {} } }] },
      ],
    })
  })

  it('halts a branch at its timeout, aborting the model request in flight', async () => {
    const ponder = createBranchTool('ponder').execute(function* (_params, ctx) {
      return yield* ctx.branch((sub) => sub.sample({ prompt: 'Think for a very long time' }), { timeout: 100 })
    })
    const client = await start(ponder, (body) => chatTurn(body, 'ponder') ?? new Promise<never>(() => {}))
    const turn = await client.say('Ponder this')
    expect(eventsOf(turn.events, 'tool_error')[0]).toMatchObject({
      name: 'ponder',
      message: 'The branch at depth 1 did not finish within its timeout of 100 ms and was halted.',
    })
    await vi.waitFor(() => expect(scripted!.server.hungUp.map((body) => body.messages.at(-1)?.content)).toEqual(['Think for a very long time']))
  })

  it('applies the chat server’s limits to every tool', async () => {
    const nested = createBranchTool('nested').execute(function* (_params, ctx) {
      return yield* ctx.branch((sub) => sub.branch(function* (deeper) {
        return deeper.depth
      }))
    })
    const client = await start(nested, (body) => chatTurn(body, 'nested')!, { maxDepth: 1 })
    const turn = await client.say('Go deep')
    expect(eventsOf(turn.events, 'tool_error')[0]?.message).toBe('A branch at depth 2 exceeds the limit of maxDepth 1.')
  })

  it('refuses limits that make no sense when the chat server starts', async () => {
    await expect(createChatServer({ model: createOpenAIModel({ apiKey: 'k', model: 'm' }), tools: [], branchLimits: { timeout: 0 } })).rejects.toThrow(
      'createChatServer branchLimits: limit timeout must be a whole number of at least 1, not 0.',
    )
  })

  it('reports elicit in a branch as the tool’s error, with the reason', async () => {
    const eager = createBranchTool('eager')
      .elicits({ ok: z.object({ ok: z.boolean() }) })
      .execute(function* (_params, ctx) {
        return yield* ctx.branch((sub) => sub.elicit('ok', { message: 'OK?' }))
      })
    const client = await start(eager, (body) => chatTurn(body, 'eager')!)
    const turn = await client.say('Go')
    expect(elicitRequests(turn.events)).toEqual([])
    expect(eventsOf(turn.events, 'tool_error')[0]?.message).toContain('only the tool itself (depth 0) may ask')
  })
})
