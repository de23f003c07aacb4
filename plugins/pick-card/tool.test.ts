import { run, sleep } from 'effection'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMockBranchClient, runBranchTool, SampleOutputError, ToolUsageError, BranchTimeoutError, type MockBranchClient } from '@/lib/runtime'
import { cardName, cardSchema, sameCard, shortCardName, type Card } from './cards'
import { pickCardTool, type PickCardResult } from './tool'

afterEach(() => {
  vi.restoreAllMocks()
})

/** Make every CSPRNG draw 0: the deck's first cards (2♥, 3♥, …) come out in order, and the secret is card 1. */
function fixRandomness() {
  vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    if (array) new Uint8Array(array.buffer, array.byteOffset, array.byteLength).fill(0)
    return array
  })
}

function play(params: { count?: number; analyze?: boolean }, client: MockBranchClient) {
  return run(() => runBranchTool(pickCardTool, params, client))
}

function offered(client: MockBranchClient, call = 0): Card[] {
  return cardSchema.array().parse(client.elicitCalls[call]?.context.cards)
}

function picked(result: PickCardResult) {
  if (result.status !== 'picked') throw new Error(`expected a pick, got ${JSON.stringify(result)}`)
  return result
}

const ANALYSIS = { summary: 'A low hand with one court card.', favourite: 2, reason: 'Card 2 is the highest.' }

describe('pick_card without analysis', () => {
  it('offers the drawn cards, never asks the model, and reveals the pick and the secret', async () => {
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { cardNumber: 2 } }] })
    const result = picked(await play({}, client))

    expect(client.sampleCalls).toHaveLength(0)
    expect(client.elicitCalls).toHaveLength(1)
    const [call] = client.elicitCalls
    expect(call!.key).toBe('pickCard')
    const cards = offered(client)
    expect(cards).toHaveLength(5)
    expect(new Set(cards.map(shortCardName)).size).toBe(5)
    // The message lists every card as text, for clients that only show text.
    for (const [index, card] of cards.entries()) expect(call!.message).toContain(`${index + 1}. ${cardName(card)} (${shortCardName(card)})`)

    // The draw was made once: the cards revealed are the cards offered.
    expect(result.cards).toEqual(cards)
    expect(result.picked).toEqual(cards[1])
    expect(result.pickedNumber).toBe(2)
    expect(result.pickedName).toBe(cardName(cards[1]!))
    expect(cards.some((card) => sameCard(card, result.secret))).toBe(true)
    expect(result.secretName).toBe(cardName(result.secret))
    expect(result.isWinner).toBe(sameCard(result.picked, result.secret))
    expect(client.logs.map((entry) => entry.message)).toEqual(['Drew 5 cards'])
  })

  it('wins when the pick is the secret card', async () => {
    fixRandomness()
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { cardNumber: 1 } }] })
    const result = picked(await play({ count: 3 }, client))
    expect(offered(client).map(shortCardName)).toEqual(['2♥', '3♥', '4♥'])
    expect(result.secret).toEqual({ rank: '2', suit: 'hearts' })
    expect(result).toMatchObject({ isWinner: true, pickedNumber: 1, pickedName: 'Two of Hearts', secretName: 'Two of Hearts' })
  })

  it('loses when the pick is another card', async () => {
    fixRandomness()
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { cardNumber: 3 } }] })
    const result = picked(await play({ count: 3 }, client))
    expect(result).toMatchObject({ isWinner: false, pickedName: 'Four of Hearts', secretName: 'Two of Hearts' })
  })

  it('keeps the secret out of everything the client sees', async () => {
    fixRandomness()
    const client = createMockBranchClient({ elicitResponses: [{ action: 'decline' }] })
    await play({ count: 4 }, client)
    const [call] = client.elicitCalls
    expect(Object.keys(call!.context)).toEqual(['cards'])
    expect(JSON.stringify(call!.schema)).not.toMatch(/secret"|"isWinner/)
    // The secret (2♥) is offered like every other card: once in the list, and nowhere else.
    expect(call!.message.split('Two of Hearts')).toHaveLength(2)
    for (const text of [...client.logs, ...client.notifications].map((entry) => entry.message)) {
      expect(text).not.toMatch(/Two of Hearts|2♥|secret is/i)
    }
  })

  it('asks again, saying why, when the card number is past the last card', async () => {
    const client = createMockBranchClient({
      elicitResponses: [
        { action: 'accept', content: { cardNumber: 9 } },
        { action: 'accept', content: { cardNumber: 4 } },
      ],
    })
    const result = picked(await play({ count: 4 }, client))
    expect(client.elicitCalls).toHaveLength(2)
    expect(client.elicitCalls[1]!.message).toMatch(/^Card 9 is not one of the 4 cards\. Pick a card from 1 to 4:/)
    expect(offered(client, 1)).toEqual(offered(client, 0))
    expect(result.pickedNumber).toBe(4)
    expect(result.picked).toEqual(offered(client)[3])
    // Progress ends at 1 with the pick, so the chat's bar ends full rather than at the question's 0.6.
    expect(client.notifications.map(({ message, progress }) => [message, progress])).toEqual([
      ['Waiting for your pick', 0.6],
      ['Waiting for your pick', 0.6],
      ['You picked card 4', 1],
    ])
  })

  it('rejects a card number the schema does not accept', async () => {
    const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { cardNumber: 0 } }] })
    await expect(play({}, client)).rejects.toThrow(/cardNumber/)
  })

  it.each(['decline', 'cancel'] as const)('ends with no card picked on %s', async (action) => {
    const client = createMockBranchClient({ elicitResponses: [{ action }] })
    expect(await play({ count: 2 }, client)).toEqual({ status: 'cancelled', message: 'No card was picked.' })
    expect(client.notifications.at(-1)).toMatchObject({ message: 'No card was picked', progress: 1 })
  })

  it('refuses parameters out of range, and a client that cannot sample', async () => {
    await expect(play({ count: 11 }, createMockBranchClient())).rejects.toThrow(ToolUsageError)
    await expect(play({ count: 1 }, createMockBranchClient())).rejects.toThrow(/count/)
    await expect(play({}, createMockBranchClient({ capabilities: { sampling: false } }))).rejects.toThrow(/requires sampling/)
  })
})

describe('pick_card with analysis', () => {
  it('analyses the hand in a fresh sub-branch with a schema, and shows the analysis with the cards', async () => {
    const client = createMockBranchClient({
      sampleResponses: [JSON.stringify(ANALYSIS)],
      elicitResponses: [{ action: 'accept', content: { cardNumber: 2 } }],
    })
    const result = picked(await play({ count: 5, analyze: true }, client))

    expect(client.sampleCalls).toHaveLength(1)
    const [sample] = client.sampleCalls
    expect(sample!.depth).toBe(1)
    // inheritMessages: false — only the analysis prompt, which lists the cards offered.
    expect(sample!.messages).toHaveLength(1)
    const prompt = String(sample!.messages[0]!.content)
    for (const card of offered(client)) expect(prompt).toContain(cardName(card))
    expect(sample!.schema).toMatchObject({
      type: 'object',
      properties: { favourite: { type: 'integer', minimum: 1, maximum: 5 }, reason: { type: 'string' }, summary: { type: 'string' } },
    })

    const [call] = client.elicitCalls
    expect(call!.context.analysis).toEqual(ANALYSIS)
    expect(Object.keys(call!.context).sort()).toEqual(['analysis', 'cards'])
    expect(call!.message).toContain('Analysis: A low hand with one court card.')
    expect(call!.message).toContain('Suggested: card 2 — Card 2 is the highest.')
    expect(client.logs.map((entry) => entry.message)).toEqual(['Drew 5 cards', 'The analysis suggests card 2'])
    expect(result.picked).toEqual(offered(client)[1])
  })

  it('fails clearly, before asking the user, when the model answers with no valid analysis', async () => {
    const client = createMockBranchClient({ sampleResponses: [JSON.stringify({ ...ANALYSIS, favourite: 6 })] })
    await expect(play({ analyze: true }, client)).rejects.toThrow(SampleOutputError)
    expect(client.elicitCalls).toHaveLength(0)
  })

  it('halts an analysis that takes longer than the tool allows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const client = createMockBranchClient({
        sampleResponses: [
          function* () {
            yield* sleep(60_000)
            return JSON.stringify(ANALYSIS)
          },
        ],
      })
      const playing = play({ analyze: true }, client)
      const failure = expect(playing).rejects.toThrow(BranchTimeoutError)
      await vi.advanceTimersByTimeAsync(30_000)
      await failure
      expect(client.elicitCalls).toHaveLength(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('declares sensible limits', () => {
    expect(pickCardTool.limits).toEqual({ maxDepth: 1, maxTokens: 4000, timeout: 30_000 })
    expect(pickCardTool.requires).toEqual({ elicitation: true, sampling: true })
  })
})
