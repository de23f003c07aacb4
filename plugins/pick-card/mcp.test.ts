import { describe, expect, it } from 'vitest'
import { expectIncreasingToTotal } from '@/lib/mcp/server/testing/progress-of-call'
import { endpointPerTest } from '@/lib/mcp/server/testing/endpoint-per-test'
import { pickCardTool } from './tool'

// pick_card over MCP: a hand dealt, analysed by the app’s model, one pick, the secret kept on the server until then.
const served = endpointPerTest({ tools: [pickCardTool], stateSecret: 'c'.repeat(32) })

it.each(['2025', '2026'] as const)('pick_card deals, analyses with the app’s model, and lets the user pick (%s)', async (era) => {
  const connected = await served.connect({ era, answer: () => ({ action: 'accept', content: { cardNumber: '2' } }) })
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
    const { result, progress, asked } = await served.callWithProgress(era, 'pick_card', { count: 4, analyze: true }, [
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
    const { result, progress } = await served.callWithProgress(era, 'pick_card', { count: 3 }, [() => ({ action: 'cancel' })])
    expect(result.structuredContent).toMatchObject({ status: 'cancelled' })
    expectIncreasingToTotal(progress)
  })
})
