import type { Client } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createOfflineModel } from '../../models'
import { pluginTools } from '@/plugins'
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint'
import { connectBookingClient, type Asked } from './testing/booking-client'
import { serveFetch } from './testing/serve-fetch'

// The other plugin tools over MCP: a game of many rounds, and a handoff whose secret stays on the server.
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
let client: Client | undefined

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: pluginTools, model: createOfflineModel(), stateSecret: 'p'.repeat(32) })
  served = await serveFetch((request) => endpoint.handle(request))
})
afterEach(async () => {
  await client?.close()
  await served.close()
  await endpoint.close()
})

it.each(['2025', '2026'] as const)('tictactoe plays to the end, one elicitation per move (%s)', async (era) => {
  const firstEmpty = (asked: Asked) => {
    const board = asked.context.board as (string | null)[]
    return board.findIndex((cell) => cell === null) + 1
  }
  const connected = await connectBookingClient({ url: served.url, era, answer: (asked) => ({ action: 'accept', content: { cell: String(firstEmpty(asked)) } }) })
  client = connected.client
  const result = await client.callTool({ name: 'tictactoe', arguments: {} })
  const game = result.structuredContent as { outcome: string; moves: { player: string }[] }
  expect(['win', 'loss', 'draw']).toContain(game.outcome)
  expect(connected.asked.length).toBe(game.moves.filter((move) => move.player === 'user').length)
})

it.each(['2025', '2026'] as const)('pick_card deals, analyses with the app’s model, and lets the user pick (%s)', async (era) => {
  const connected = await connectBookingClient({ url: served.url, era, answer: () => ({ action: 'accept', content: { cardNumber: '2' } }) })
  client = connected.client
  const result = await client.callTool({ name: 'pick_card', arguments: { count: 4, analyze: true } })
  expect(connected.asked).toHaveLength(1)
  expect((connected.asked[0]!.context.cards as unknown[]).length).toBe(4)
  expect(connected.asked[0]!.context).toHaveProperty('analysis')
  // The secret card never reached the client before the pick: the question carries the hand and the analysis only.
  expect(Object.keys(connected.asked[0]!.context).sort()).toEqual(['analysis', 'cards'])
  expect(result.structuredContent).toMatchObject({ status: 'picked', pickedNumber: 2, secret: expect.any(Object) })
})
