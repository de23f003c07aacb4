import { afterEach, describe, expect, it } from 'vitest'
import { createChatServer, type ChatServer } from '@/lib/engine'
import type { PluginElicitRequestEvent } from '@/lib/protocol'
import { createChatTestClient, elicitRequests, eventsOf } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel } from '@/lib/models'
import { ticTacToeOffline } from './offline'
import { decodeModelContext, MODEL_CONTEXT_BOUNDARY, MODEL_CONTEXT_KEY } from '@/lib/tools'
import { ticTacToeTool } from './tool'

/**
 * The degradation table of x-model-context (mcp-plugin-bridge-design.md), shown on a real
 * pickMove request after one move each: every kind of client can still play.
 */
let chat: ChatServer | undefined
afterEach(() => chat?.close())

async function midGameRequest(): Promise<{ request: PluginElicitRequestEvent; answer: (cell: number) => Promise<unknown> }> {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [ticTacToeOffline] }), tools: [ticTacToeTool] })
  const client = createChatTestClient({ chat })
  const [first] = elicitRequests((await client.say("Let's play tic-tac-toe")).events)
  const [request] = elicitRequests((await client.answer([{ request: first!, result: { action: 'accept', content: { cell: 1 } } }])).events)
  return {
    request: request!,
    answer: async (cell) => {
      const turn = await client.answer([{ request: request!, result: { action: 'accept', content: { cell } } }])
      return { logs: eventsOf(turn.events, 'plugin_log').map((event) => event.message), status: turn.status }
    },
  }
}

const boardAfterOneMoveEach = ['X', null, null, null, 'O', null, null, null, null]

describe('x-model-context degrades gracefully', () => {
  it('gives a plugin handler (or an aware client) the typed context from the schema', async () => {
    const { request } = await midGameRequest()
    const decoded = decodeModelContext({ message: request.message, schema: request.schema })
    expect(decoded.source).toBe('schema')
    expect(decoded.context.board).toEqual(boardAfterOneMoveEach)
    expect(decoded.context.moveHistory).toEqual([
      { player: 'user', mark: 'X', cell: 1 },
      { player: 'model', mark: 'O', cell: 5 },
    ])
  })

  it('reads the same context from the message boundary when a transport stripped it from the schema', async () => {
    const { request } = await midGameRequest()
    const { [MODEL_CONTEXT_KEY]: stripped, ...plainSchema } = request.schema
    expect(stripped).toBeDefined()
    const decoded = decodeModelContext({ message: request.message, schema: plainSchema })
    expect(decoded.source).toBe('message')
    expect(decoded.context).toEqual(decodeModelContext(request).context)
  })

  it('still lets a client that knows neither play: a readable message with the board, and a plain form', async () => {
    const { request, answer } = await midGameRequest()
    const readable = request.message.slice(0, request.message.indexOf(MODEL_CONTEXT_BOUNDARY))
    expect(readable).toBe(
      'The model took cell 5. Your move — you are X.\n\nX | 2 | 3\n---------\n4 | O | 6\n---------\n7 | 8 | 9\n\nEmpty cells: 2, 3, 4, 6, 7, 8, 9.\n\n',
    )
    expect(request.schema).toMatchObject({
      type: 'object',
      properties: { cell: { type: 'integer', minimum: 1, maximum: 9 } },
      required: ['cell'],
    })
    // Filling in that form is a move like any other.
    await expect(answer(9)).resolves.toMatchObject({ status: 200, logs: expect.arrayContaining(['Move 3: you took cell 9']) })
  })
})
