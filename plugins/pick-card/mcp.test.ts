import type { Client } from '@modelcontextprotocol/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMcpEndpoint, type McpEndpoint } from '@/lib/mcp/server'
import { connectBookingClient, type Answer, type Asked, type Era } from '@/lib/mcp/server/testing/booking-client'
import { callWithProgress as callOn, expectIncreasingToTotal } from '@/lib/mcp/server/testing/progress-of-call'
import { serveFetch } from '@/lib/mcp/server/testing/serve-fetch'
import { createOfflineModel } from '@/lib/models'
import { pickCardTool } from './tool'

// pick_card over MCP: a hand dealt, analysed by the app’s model, one pick, the secret kept on the server until then.
let endpoint: McpEndpoint
let served: { url: URL; close(): Promise<void> }
const clients: Client[] = []

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: [pickCardTool], model: createOfflineModel(), stateSecret: 'c'.repeat(32) })
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

it.each(['2025', '2026'] as const)('pick_card deals, analyses with the app’s model, and lets the user pick (%s)', async (era) => {
  const connected = await connectBookingClient({ url: served.url, era, answer: () => ({ action: 'accept', content: { cardNumber: '2' } }) })
  clients.push(connected.client)
  const result = await connected.client.callTool({ name: 'pick_card', arguments: { count: 4, analyze: true } })
  expect(connected.asked).toHaveLength(1)
  expect((connected.asked[0]!.context.cards as unknown[]).length).toBe(4)
  expect(connected.asked[0]!.context).toHaveProperty('analysis')
  // The secret card never reached the client before the pick: the question carries the hand and the analysis only.
  expect(Object.keys(connected.asked[0]!.context).sort()).toEqual(['analysis', 'cards'])
  expect(result.structuredContent).toMatchObject({ status: 'picked', pickedNumber: 2, secret: expect.any(Object) })
})

describe.each(['2025', '2026'] as const)('pick_card’s progress over MCP (%s)', (era) => {
  it('increases across a card asked again, and ends at the total', async () => {
    const { result, progress, asked } = await callWithProgress(era, 'pick_card', { count: 4, analyze: true }, [
      () => ({ action: 'accept', content: { cardNumber: '9' } }),
      () => ({ action: 'accept', content: { cardNumber: '2' } }),
    ])
    expect(asked).toHaveLength(2)
    expect(result.structuredContent).toMatchObject({ status: 'picked', pickedNumber: 2 })
    expectIncreasingToTotal(progress)
    expect(asked[1]!.message).toMatch(/^That answer was not accepted: "9" is not one of the offered choices for Card/)
    expect(progress.map((update) => update.message)).toEqual(['Analysing the cards', 'Waiting for your pick', 'You picked card 2'])
  })

  it('a call the user ends early still ends at the total', async () => {
    const { result, progress } = await callWithProgress(era, 'pick_card', { count: 3 }, [() => ({ action: 'cancel' })])
    expect(result.structuredContent).toMatchObject({ status: 'cancelled' })
    expectIncreasingToTotal(progress)
  })
})
