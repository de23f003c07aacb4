import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChatServer, type ChatServer } from '@/lib/engine/chat-server'
import type { ChatEvent, PluginElicitRequestEvent } from '@/lib/protocol'
import { createChatTestClient, elicitRequests, eventsOf, textOf, type ChatTestClient } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel } from '@/lib/models'
import { pickCardOffline } from './offline'
import { cardName, cardSchema, RANKS, shortCardName, type Card } from './cards'
import { pickCardTool, type CardAnalysis, type PickCardResult } from './tool'

let chat: ChatServer
let client: ChatTestClient

beforeEach(async () => {
  chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [pickCardOffline] }), tools: [pickCardTool] })
  client = createChatTestClient({ chat })
})
afterEach(() => chat.close())

function contextOf(request: PluginElicitRequestEvent) {
  const { context, message } = request
  return { message, cards: cardSchema.array().parse(context.cards), analysis: context.analysis as CardAnalysis | undefined, keys: Object.keys(context) }
}

async function start(text = 'Pick a card') {
  const turn = await client.say(text)
  const [request] = elicitRequests(turn.events)
  if (!request) throw new Error(`no elicitation in ${JSON.stringify(turn.events)}`)
  return { turn, request, ...contextOf(request) }
}

function resultOf(events: ChatEvent[]): PickCardResult {
  const [result] = eventsOf(events, 'tool_result')
  if (!result) throw new Error(`no tool result in ${JSON.stringify(events)}`)
  return JSON.parse(result.content) as PickCardResult
}

function picked(result: PickCardResult) {
  if (result.status !== 'picked') throw new Error(`expected a pick, got ${JSON.stringify(result)}`)
  return result
}

describe('pick_card through the HTTP contract', () => {
  it('draws cards, takes the pick, reveals the secret, and the assistant comments', async () => {
    const { turn, request, cards, message, keys } = await start()
    expect(eventsOf(turn.events, 'tool_calls')[0]?.calls).toEqual([{ id: request.callId, name: 'pick_card', arguments: { count: 5, analyze: false }, title: 'Pick one of 5 cards' }])
    expect(textOf(turn.events)).toContain('5 cards')
    expect(request).toMatchObject({ toolName: 'pick_card', key: 'pickCard' })
    expect(keys).toEqual(['cards'])
    expect(cards).toHaveLength(5)
    for (const [index, card] of cards.entries()) expect(message).toContain(`${index + 1}. ${cardName(card)} (${shortCardName(card)})`)
    expect(request.schema).toMatchObject({ type: 'object', properties: { cardNumber: { type: 'integer' } } })

    const done = await client.answer([{ request, result: { action: 'accept', content: { cardNumber: 3 } } }])
    const result = picked(resultOf(done.events))
    expect(result.cards).toEqual(cards)
    expect(result.picked).toEqual(cards[2])
    expect(cards).toContainEqual(result.secret)
    expect(result.isWinner).toBe(result.picked.rank === result.secret.rank && result.picked.suit === result.secret.suit)

    const comment = textOf(done.events)
    expect(comment).toContain(cardName(cards[2]!))
    if (result.isWinner) expect(comment).toContain('You win!')
    else expect(comment).toContain(`the secret card was the ${cardName(result.secret)}`)
    expect(done.events.at(-1)?.type).toBe('complete')
    expect(client.messages.map((entry) => entry.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(await chat.listActive()).toEqual([])
  })

  it('ends cleanly when the user declines', async () => {
    const { request } = await start()
    const turn = await client.answer([{ request, result: { action: 'decline' } }])
    expect(resultOf(turn.events)).toEqual({ status: 'cancelled', message: 'No card was picked.' })
    expect(textOf(turn.events)).toMatch(/^No card was picked/)
    expect(eventsOf(turn.events, 'plugin_session_error')).toEqual([])
    expect(await chat.listActive()).toEqual([])
  })

  it('never lets the secret card out before the result', async () => {
    const first = await start('Draw 6 cards')
    const done = await client.answer([{ request: first.request, result: { action: 'accept', content: { cardNumber: 1 } } }])
    const resultAt = done.events.findIndex((event) => event.type === 'tool_result')
    const before = [...first.turn.events, ...done.events.slice(0, resultAt)].map((event) => JSON.stringify(event))
    const { secret } = picked(resultOf(done.events))

    expect(before.join('\n')).not.toMatch(/secret"|isWinner/)
    // The secret is offered like every other card: named exactly as often as each of them.
    const mentions = (card: Card) => before.reduce((sum, line) => sum + line.split(cardName(card)).length - 1, 0)
    expect(first.cards.map(mentions)).toEqual(first.cards.map(() => mentions(secret)))
    expect(mentions(secret)).toBeGreaterThan(0)
  })

  it('draws once: a re-ask after an out-of-range card offers the same cards, and the result reveals them', async () => {
    const { request, cards } = await start('Draw 4 cards')
    const second = await client.answer([{ request, result: { action: 'accept', content: { cardNumber: 9 } } }])
    const [again] = elicitRequests(second.events)
    expect(again).toMatchObject({ key: 'pickCard', sessionId: request.sessionId })
    expect(again!.elicitId).not.toBe(request.elicitId)
    const retry = contextOf(again!)
    expect(retry.message).toMatch(/^Card 9 is not one of the 4 cards\. Pick a card from 1 to 4:/)
    expect(retry.cards).toEqual(cards)
    expect(eventsOf(second.events, 'tool_result')).toEqual([])

    const done = await client.answer([{ request: again!, result: { action: 'accept', content: { cardNumber: 4 } } }])
    const result = picked(resultOf(done.events))
    expect(result.cards).toEqual(cards)
    expect(result).toMatchObject({ pickedNumber: 4, picked: cards[3] })
  })

  it('rejects a card number the schema refuses, and keeps waiting', async () => {
    const { request, cards } = await start()
    const turn = await client.answer([{ request, result: { action: 'accept', content: { cardNumber: 0 } } }])
    expect(eventsOf(turn.events, 'plugin_elicit_rejected')[0]).toMatchObject({ elicitId: request.elicitId, issues: [{ path: 'cardNumber' }] })
    const done = await client.answer([{ request, result: { action: 'accept', content: { cardNumber: 1 } } }])
    expect(picked(resultOf(done.events)).picked).toEqual(cards[0])
  })

  it('with analysis: the structured analysis from the model arrives in the elicitation context', async () => {
    const { turn, request, cards, analysis, message, keys } = await start('Pick a card and analyze them')
    expect(eventsOf(turn.events, 'tool_calls')[0]?.calls[0]?.arguments).toEqual({ count: 5, analyze: true })
    expect(keys.sort()).toEqual(['analysis', 'cards'])
    expect(analysis).toEqual({ summary: expect.any(String), favourite: expect.any(Number), reason: expect.any(String) })
    const favourite = cards[analysis!.favourite - 1]!
    // The offline model reads the numbered cards from the prompt and favours the highest.
    expect(Math.max(...cards.map((card) => RANKS.indexOf(card.rank)))).toBe(RANKS.indexOf(favourite.rank))
    expect(analysis!.reason).toContain(cardName(favourite))
    const lowest = cards.reduce((low, card) => (RANKS.indexOf(card.rank) < RANKS.indexOf(low.rank) ? card : low))
    expect(analysis!.summary).toMatch(new RegExp(`^5 cards, .+: the highest is the ${cardName(favourite)}, the lowest the ${cardName(lowest)}\\.$`))
    expect(message).toContain(`Suggested: card ${analysis!.favourite}`)
    expect(eventsOf(turn.events, 'plugin_log').map((event) => event.message)).toEqual(['Drew 5 cards', `The analysis suggests card ${analysis!.favourite}`])

    const done = await client.answer([{ request, result: { action: 'accept', content: { cardNumber: analysis!.favourite } } }])
    expect(picked(resultOf(done.events)).picked).toEqual(favourite)
  })
})
