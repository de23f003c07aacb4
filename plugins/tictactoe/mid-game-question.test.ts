import { afterEach, describe, expect, it } from 'vitest'
import { createChatServer, type ChatServer } from '@/lib/engine'
import type { PluginElicitRequestEvent } from '@/lib/protocol'
import { createChatTestClient, elicitRequests, eventsOf } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel } from '@/lib/models'
import { ticTacToeOffline } from './offline'
import { ticTacToeTool } from './tool'

/**
 * Every kind of client of `POST /api/chat` can play, shown on a real pickMove request after one
 * move each: the context is the question's own field, and the message and the schema alone are
 * enough for a client that reads neither.
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

describe('a mid-game question, as every kind of client reads it', () => {
  it('gives a plugin handler (or an aware client) the game so far as the question’s context', async () => {
    const { request } = await midGameRequest()
    expect(request.context.board).toEqual(boardAfterOneMoveEach)
    expect(request.context.moveHistory).toEqual([
      { player: 'user', mark: 'X', cell: 1 },
      { player: 'model', mark: 'O', cell: 5 },
    ])
  })

  it('carries the context once: not again in the message or the schema', async () => {
    const { request } = await midGameRequest()
    expect(JSON.stringify(request.schema)).not.toContain('moveHistory')
    expect(request.message).not.toContain('moveHistory')
    expect(request.message).not.toContain('x-model-context')
  })

  it('still lets a client that knows no context play: a readable message with the board, and a plain form', async () => {
    const { request, answer } = await midGameRequest()
    expect(request.message).toBe(
      'The model took cell 5. Your move — you are X.\n\nX | 2 | 3\n---------\n4 | O | 6\n---------\n7 | 8 | 9\n\nEmpty cells: 2, 3, 4, 6, 7, 8, 9.',
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
