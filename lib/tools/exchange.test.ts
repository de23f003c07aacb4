import { run } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMockBranchClient } from '../runtime/mock-branch-client'
import { runBranchTool } from '../runtime/run-branch-tool'
import { createMcpTool } from './create-mcp-tool'
import { createElicitExchange } from './exchange'
import type { ExtendedMessage } from './sample-messages'

const board = ['X', null, 'O', null, null, null, null, null, null]

describe('createElicitExchange', () => {
  const exchange = createElicitExchange({
    callId: 'call_abc',
    seq: 3,
    key: 'pickMove',
    context: { board, secret: 'never in a prompt' },
    content: { position: 4 },
  })

  it('names the tool call elicit_${callId}_${seq} and the function after the key', () => {
    expect(exchange.request).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'elicit_call_abc_3', type: 'function', function: { name: 'pickMove', arguments: {} } }],
    })
    expect(exchange.response).toEqual({ role: 'tool', tool_call_id: 'elicit_call_abc_3', content: '{"position":4}' })
  })

  it('keeps the context out of the messages by default', () => {
    expect(exchange.messages).toEqual([exchange.request, exchange.response])
    expect(JSON.stringify(exchange.messages)).not.toContain('never in a prompt')
    expect(exchange.context).toEqual({ board, secret: 'never in a prompt' })
  })

  it('puts only what withArguments chooses into the arguments', () => {
    const [request, response] = exchange.withArguments((context) => ({ cellsTaken: context.board.filter(Boolean).length }))
    expect(request.tool_calls).toEqual([
      { id: 'elicit_call_abc_3', type: 'function', function: { name: 'pickMove', arguments: { cellsTaken: 2 } } },
    ])
    expect(response).toEqual(exchange.response)
    expect(JSON.stringify([request, response])).not.toContain('never in a prompt')
  })

  it('gives fresh messages each time, so a caller editing one cannot change another', () => {
    const first = exchange.messages
    first[0].tool_calls[0]!.function.arguments.injected = true
    first[1].content = 'edited'
    expect(exchange.messages[0].tool_calls[0]!.function.arguments).toEqual({})
    expect(exchange.messages[1].content).toBe('{"position":4}')
    expect(exchange.withArguments(() => ({}))[1].content).toBe('{"position":4}')
  })
})

describe('ctx.elicit results', () => {
  const game = createMcpTool('game')
    .elicits({ pickMove: z.object({ position: z.number().int().min(0).max(8) }) })
    .execute(function* (_params, ctx) {
      const history: ExtendedMessage[] = []
      yield* ctx.log('info', 'starting')
      const first = yield* ctx.elicit('pickMove', { message: 'Your move', board, moveHistory: [] as number[] })
      if (first.action !== 'accept') return { action: first.action, hasExchange: 'exchange' in first }
      history.push(...first.exchange.withArguments((context) => ({ moves: context.moveHistory.length })))
      const second = yield* ctx.elicit('pickMove', { message: 'Again', board, moveHistory: [first.content.position] })
      if (second.action !== 'accept') return { action: second.action, hasExchange: 'exchange' in second, history }
      history.push(...second.exchange.messages)
      return { action: 'accept', context: second.exchange.context, history }
    })

  it('carries the exchange on accept, numbered by the ctx call', async () => {
    const client = createMockBranchClient({
      elicitResponses: [
        { action: 'accept', content: { position: 4 } },
        { action: 'accept', content: { position: 1 } },
      ],
    })
    const result = await run(() => runBranchTool(game, {}, client, { callId: 'call_7' }))
    expect(result).toEqual({
      action: 'accept',
      context: { board, moveHistory: [4] },
      history: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'elicit_call_7_2', type: 'function', function: { name: 'pickMove', arguments: { moves: 0 } } }] },
        { role: 'tool', tool_call_id: 'elicit_call_7_2', content: '{"position":4}' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'elicit_call_7_3', type: 'function', function: { name: 'pickMove', arguments: {} } }] },
        { role: 'tool', tool_call_id: 'elicit_call_7_3', content: '{"position":1}' },
      ],
    })
  })

  it.each(['decline', 'cancel'] as const)('carries no exchange on %s', async (action) => {
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { position: 0 } }, { action }] })
    const result = await run(() => runBranchTool(game, {}, client))
    expect(result).toMatchObject({ action, hasExchange: false })
  })

  it('puts the validated content into the tool result, not what the client sent', async () => {
    const trimmed = createMcpTool('trim')
      .elicits({ name: z.object({ name: z.string().trim() }) })
      .execute(function* (_params, ctx) {
        const answer = yield* ctx.elicit('name', { message: 'Name?' })
        return answer.action === 'accept' ? answer.exchange.response.content : answer.action
      })
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { name: '  Ada  ', extra: 1 } }] })
    await expect(run(() => runBranchTool(trimmed, {}, client))).resolves.toBe('{"name":"Ada"}')
  })
})
