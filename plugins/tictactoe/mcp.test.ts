import type { Client } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMcpEndpoint, type McpEndpoint } from '@/lib/mcp/server'
import { connectBookingClient, type Answer, type Asked, type Era } from '@/lib/mcp/server/testing/booking-client'
import { callWithProgress as callOn, expectIncreasingToTotal } from '@/lib/mcp/server/testing/progress-of-call'
import { serveFetch } from '@/lib/mcp/server/testing/serve-fetch'
import { createOfflineModel } from '@/lib/models'
import { ticTacToeTool } from './tool'

// tictactoe over MCP: a game of many rounds, one question per move, its progress rising to the end.
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: [ticTacToeTool], model: createOfflineModel(), stateSecret: 't'.repeat(32) })
  served = await serveFetch((request) => endpoint.handle(request))
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})))
  await served.close()
  await endpoint.close()
})

/** Call the tool with a client of `era` that answers with `answers` in turn; the progress the call reported, in order. */
async function callWithProgress(era: Era, name: string, args: Record<string, unknown>, answers: ((asked: Asked) => Answer)[]) {
  const call = await callOn({ url: served.url, era, name, args, answers })
  clients.push(call.client)
  return call
}

const emptyCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell === null) + 1
const takenCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell !== null) + 1

it.each(['2025', '2026'] as const)('tictactoe plays to the end, one elicitation per move (%s)', async (era) => {
  const connected = await connectBookingClient({ url: served.url, era, answer: (asked) => ({ action: 'accept', content: { cell: String(emptyCell(asked)) } }) })
  clients.push(connected.client)
  const result = await connected.client.callTool({ name: 'tictactoe', arguments: {} })
  const game = result.structuredContent as { outcome: string; moves: { player: string }[] }
  expect(['win', 'loss', 'draw']).toContain(game.outcome)
  expect(connected.asked.length).toBe(game.moves.filter((move) => move.player === 'user').length)
})

describe.each(['2025', '2026'] as const)('tictactoe’s progress over MCP (%s)', (era) => {
  it('increases over a whole game with a taken cell asked again, and ends at the total', async () => {
    const answers = [emptyCell, takenCell, ...Array.from({ length: 5 }, () => emptyCell)].map(
      (cell) => (asked: Asked): Answer => ({ action: 'accept', content: { cell: String(cell(asked)) } }),
    )
    const { result, progress, asked } = await callWithProgress(era, 'tictactoe', {}, answers)
    const game = result.structuredContent as { outcome: string; moves: { player: string }[] }
    expect(['win', 'loss', 'draw']).toContain(game.outcome)
    expect(asked.length).toBe(game.moves.filter((move) => move.player === 'user').length + 1)
    expectIncreasingToTotal(progress)
    expect(progress[0]).toMatchObject({ progress: 0, message: 'Your move: you are X' })
    expect(progress.at(-1)!.message).toMatch(/^Game over/)
  })
})
