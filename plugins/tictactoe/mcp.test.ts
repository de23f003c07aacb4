import { describe, expect, it } from 'vitest'
import type { Answer, Asked } from '@/lib/mcp/server/testing/booking-client'
import { expectIncreasingToTotal } from '@/lib/mcp/server/testing/progress-of-call'
import { endpointPerTest } from '@/lib/mcp/server/testing/endpoint-per-test'
import { ticTacToeTool } from './tool'

// tictactoe over MCP: a game of many rounds, one question per move, its progress rising to the end.
const served = endpointPerTest({ tools: [ticTacToeTool], stateSecret: 't'.repeat(32) })

const emptyCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell === null) + 1
const takenCell = (asked: Asked) => (asked.context.board as (string | null)[]).findIndex((cell) => cell !== null) + 1

it.each(['2025', '2026'] as const)('tictactoe plays to the end, one elicitation per move (%s)', async (era) => {
  const connected = await served.connect({ era, answer: (asked) => ({ action: 'accept', content: { cell: String(emptyCell(asked)) } }) })
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
    const { result, progress, asked } = await served.callWithProgress(era, 'tictactoe', {}, answers)
    const game = result.structuredContent as { outcome: string; moves: { player: string }[] }
    expect(['win', 'loss', 'draw']).toContain(game.outcome)
    expect(asked.length).toBe(game.moves.filter((move) => move.player === 'user').length + 1)
    expectIncreasingToTotal(progress)
    expect(progress[0]).toMatchObject({ progress: 0, message: 'Your move: you are X' })
    expect(progress.at(-1)!.message).toMatch(/^Game over/)
  })
})
