// What a kept booking's chat writes cost alone, in this process: a booking made once through the
// engine (offline model, sessions in memory) gives each turn's input and events; then, on the
// embedded store in a temporary directory, each booking's three turns are kept as the chat server
// keeps them (`chatHistoryOf`: `openTurn`, then one `keep` with the turn's events, the first turn
// making the chat), for a new browser each. With two checkouts, their stores side by side in
// alternating blocks (the process's CPU from `process.cpuUsage`), the medians of the blocks and of
// the pairs' ratios. Each event's JSON is made once, as the stream makes it for the browser, and
// handed to `keep` with the events. The CPU includes a scope's task per turn (`scope.run`), the
// same for both checkouts; `KEPT_WRITES_STORE=memory` measures that and the engine's part alone.
//   node --conditions=react-server --import tsx bench/kept-writes.ts [bookings per block] [blocks] [other checkout's root]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Operation } from 'effection'
import { createChatServer } from '../lib/engine/chat-server'
import { createChatTestClient, elicitRequests } from '../lib/engine/testing/chat-test-client'
import { createOfflineModel } from '../lib/models'
import { newChatId, type ChatEvent } from '../lib/protocol'
import { openInScope } from '../lib/testing/in-scope'
import { offlineSkills, pluginTools } from '../plugins'
import { BOOKING_MESSAGE, chooseFlight, chooseSeat } from './booking-answers'
import { median } from './stats'

interface KeptTurn {
  input: Record<string, unknown>
  events: ChatEvent[]
  /** Each event's JSON, as the stream writes it to the browser (made once: the stream's cost, not the store's). */
  json?: string[]
}

/** One booking through the engine in this process: each turn's input (as `turnInputOf` keeps it) and events. */
async function bookingTurns(): Promise<KeptTurn[]> {
  const chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: offlineSkills }), tools: pluginTools })
  try {
    const client = createChatTestClient({ chat })
    const first = await client.say(BOOKING_MESSAGE)
    const flights = elicitRequests(first.events)[0]!
    const flight = { sessionId: flights.sessionId, callId: flights.callId, elicitId: flights.elicitId, result: { action: 'accept' as const, content: chooseFlight(flights) } }
    const second = await client.answer([{ request: flights, result: flight.result }])
    const seats = elicitRequests(second.events)[0]!
    const seat = { sessionId: seats.sessionId, callId: seats.callId, elicitId: seats.elicitId, result: { action: 'accept' as const, content: chooseSeat(seats) } }
    const third = await client.answer([{ request: seats, result: seat.result }])
    return [
      { input: { text: BOOKING_MESSAGE }, events: first.events },
      { input: { pluginElicitResponses: [flight] }, events: second.events },
      { input: { pluginElicitResponses: [seat] }, events: third.events },
    ]
  } finally {
    await chat.close()
  }
}

interface History {
  openTurn(owner: string, chatId: string, input: unknown, options: { create: boolean }): Operation<{ keep(events: readonly ChatEvent[], json?: readonly string[]): Operation<void> }>
}

/** The chats of the checkout at `root` on an embedded store in a directory of their own: a booking's turns kept as the chat server keeps them. */
async function keptBookings(root: string, turns: KeptTurn[]) {
  const { useConversations } = (await import(join(root, 'lib/conversations/conversations.ts'))) as typeof import('../lib/conversations/conversations')
  const { chatHistoryOf } = (await import(join(root, 'lib/conversations/chat-history.ts'))) as typeof import('../lib/conversations/chat-history')
  const { useEmbeddedConversationStore } = (await import(join(root, 'lib/conversations/stores/embedded-store.ts'))) as typeof import('../lib/conversations/stores/embedded-store')
  const { createMemoryConversationStore } = (await import(join(root, 'lib/conversations/stores/memory-store.ts'))) as typeof import('../lib/conversations/stores/memory-store')
  const directory = mkdtempSync(join(tmpdir(), 'kept-writes-'))
  const scope = await openInScope(function* () {
    const store = process.env.KEPT_WRITES_STORE === 'memory' ? createMemoryConversationStore() : yield* useEmbeddedConversationStore({ directory })
    return chatHistoryOf(yield* useConversations({ store })) as History
  })
  const history = scope.value
  return {
    /** `bookings` kept bookings, each by a new browser in a new chat: the process's CPU per booking, ms. */
    async block(bookings: number): Promise<number> {
      const before = process.cpuUsage()
      for (let index = 0; index < bookings; index++) {
        const owner = newChatId()
        const id = newChatId()
        for (const [turn, { input, events, json }] of turns.entries()) {
          await scope.run(function* () {
            const kept = yield* history.openTurn(owner, id, input, { create: turn === 0 })
            yield* kept.keep(events, json)
          })
        }
      }
      const used = process.cpuUsage(before)
      return (used.user + used.system) / 1000 / bookings
    },
    async close() {
      await scope.destroy()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

const [perBlockArg, blocksArg, other] = process.argv.slice(2)
const perBlock = Number(perBlockArg) || 200
const blocks = Number(blocksArg) || 10
const turns = (await bookingTurns()).map((turn) => ({ ...turn, json: turn.events.map((event) => JSON.stringify(event)) }))
console.log(`a booking's turns: ${turns.map((turn) => `${turn.events.length} events, ${JSON.stringify(turn.events).length} bytes`).join('; ')}`)
const roots = [resolve('.'), ...(other ? [resolve(other)] : [])]
const stores = await Promise.all(roots.map((root) => keptBookings(root, turns)))
try {
  for (const store of stores) await store.block(perBlock)
  const ms: number[][] = stores.map(() => [])
  for (let block = 0; block < blocks; block++) {
    for (let step = 0; step < stores.length; step++) {
      const index = (block + step) % stores.length
      ms[index]!.push(await stores[index]!.block(perBlock))
    }
  }
  for (const [index, root] of roots.entries()) console.log(`${root}: ${median(ms[index]!).toFixed(3)} ms of CPU per kept booking (blocks ${ms[index]!.map((value) => value.toFixed(2)).join(' ')})`)
  if (stores.length === 2) {
    const ratio = median(ms[0]!.map((value, block) => value / ms[1]![block]!))
    console.log(`this checkout ÷ the other: ${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}% (the median of the pairs' ratios)`)
  }
} finally {
  for (const store of stores) await store.close()
}
