import type { LanguageModelV3 } from '@ai-sdk/provider'
import { afterEach, describe, expect, it } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { openInScope, type InScope } from '@/lib/testing/in-scope'
import { createBudget, createMemoryBudgetStore, type BudgetStore } from '../budgets'
import { createOfflineModel } from '../models'
import { createChatServer } from './chat-server'
import { createChatTestClient, elicitRequests, eventsOf } from './testing/chat-test-client'
import { freeSeats, type SeatMap, type Train } from '@/fixtures/book-train/trains'
import type { PluginElicitRequestEvent } from '../protocol/events'

const contextOf = (request: PluginElicitRequestEvent) => request.context

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** 20:48 UTC: today's budget resets in 3 h 12 min. */
const EVENING = Date.UTC(2026, 10, 29, 20, 48)

/** The offline model, with the calls made to it counted (each chat step and each sample). */
function countedModel() {
  const model = createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] })
  const calls = { streams: 0, generates: 0 }
  const counted: LanguageModelV3 = {
    ...model,
    doStream: (options) => {
      calls.streams++
      return model.doStream(options)
    },
    doGenerate: (options) => {
      calls.generates++
      return model.doGenerate(options)
    },
  }
  return { model: counted, calls }
}

async function budgeted(limit: number) {
  const clock = { now: EVENING }
  const opened: InScope<BudgetStore> = await openInScope(function* () {
    return createMemoryBudgetStore()
  })
  const store = opened.value
  const budget = createBudget({ store, limitFor: () => limit, now: () => clock.now })
  const { model, calls } = countedModel()
  const chat = await createChatServer({ model, tools: [bookTrainTool], budget })
  closers.push(() => chat.close(), () => opened.destroy())
  const used = (clientId: string) => opened.run(() => store.used(clientId, new Date(clock.now).toISOString().slice(0, 10)))
  return { chat, calls, clock, used }
}

describe('model budgets', () => {
  it('counts the model’s reported usage, refuses the next message before the model is called, and lets the waiting booking finish — its sample counted too', async () => {
    const { chat, calls, clock, used } = await budgeted(200)
    const client = createChatTestClient({ chat })

    const first = await client.say('Book a train from Paris to Lyon')
    expect(first.status).toBe(200)
    const pickTrain = elicitRequests(first.events)[0]!
    const firstUsage = eventsOf(first.events, 'complete')[0]!.usage as { inputTokens: number; outputTokens: number }
    const clientId = client.clientId!
    expect(firstUsage.inputTokens + firstUsage.outputTokens).toBeGreaterThanOrEqual(200)
    expect(await used(clientId)).toBe(firstUsage.inputTokens + firstUsage.outputTokens)

    // A new message in another conversation of the same client: refused, the model not asked.
    const waiting = client.messages
    const streamsBefore = calls.streams
    client.messages = []
    const refused = await client.send({ messages: [{ role: 'user', content: 'And a train back from Lyon to Paris' }] })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe(String((3 * 60 + 12) * 60))
    expect((await refused.json()).error).toEqual({
      code: 'budget_exhausted',
      message: "You have used today's model budget (200 tokens). It resets at 00:00 UTC (in 3 h 12 min).",
      resetsAt: '2026-11-30T00:00:00.000Z',
    })
    expect(calls.streams).toBe(streamsBefore)

    // Work in progress: the answers go through, the tool samples the model and completes.
    client.messages = waiting
    const train = (contextOf(pickTrain).trains as Train[])[0]!
    const seatTurn = await client.answer([{ request: pickTrain, result: { action: 'accept', content: { trainId: train.id } } }])
    expect(seatTurn.status).toBe(200)
    const pickSeat = elicitRequests(seatTurn.events)[0]!
    const beforeSample = await used(clientId)
    const free = freeSeats(contextOf(pickSeat).seatMap as SeatMap)[0]!
    const done = await client.answer([{ request: pickSeat, result: { action: 'accept', content: free } }])
    expect(done.status).toBe(200)
    expect(eventsOf(done.events, 'tool_result')).toHaveLength(1)
    expect(calls.generates).toBe(1)
    const doneUsage = eventsOf(done.events, 'complete')[0]!.usage as { inputTokens: number; outputTokens: number }
    // The sample's tokens are counted on top of the turn's own model step.
    expect(await used(clientId)).toBeGreaterThan(beforeSample + doneUsage.inputTokens + doneUsage.outputTokens)

    // Another account has its own budget; and at midnight UTC this one starts again.
    const other = createChatTestClient({ chat })
    expect((await other.say('Hello')).status).toBe(200)
    client.messages = []
    expect((await client.say('Hello again')).status).toBe(429)
    clock.now = Date.UTC(2026, 10, 30, 0, 0)
    expect((await client.say('Hello again')).status).toBe(200)
  })

  it('lets a Stop through once the budget is spent', async () => {
    const { chat } = await budgeted(1)
    const client = createChatTestClient({ chat })
    const first = await client.say('Book a train from Paris to Lyon')
    const pickTrain = elicitRequests(first.events)[0]!
    const stopped = await client.abort(pickTrain.sessionId)
    expect(stopped.status).toBe(200)
    expect(eventsOf(stopped.events, 'tool_error')).toHaveLength(1)
  })
})
