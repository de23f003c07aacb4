// The chats kept on the server (docs/conversations.md), in-process: how long the list answers
// for an identity with 1,000 chats (target: ≤ 50 ms on the embedded store), opening a long chat,
// and what one append costs while a turn streams — on the embedded store and on Redis.
// Figures, not pass/fail. Run alone: npx tsx bench/conversations.ts
//
// BENCH_CHATS (default 1000): the identity's chats; BENCH_OTHER_OWNERS (default 4): other identities
// with as many, so that the list has to find its owner's among them; BENCH_LIST_RUNS (default 200);
// BENCH_LONG_CHAT_TURNS (default 100: 200 messages, the person's and the assistant's).
import { randomBytes } from 'node:crypto'
import { createClientIdentity } from '../lib/http'
import {
  handleChatsRequest,
  useConversations,
  useEmbeddedConversationStore,
  useRedisConversationStore,
  type ChatsApp,
  type ConversationStore,
} from '../lib/conversations'
import { FIRST_TURN, SEAT_ANSWER, SECOND_TURN } from '../lib/conversations/testing/chat-events'
import { openInScope } from '../lib/testing/in-scope'
import { startRedisServer } from '../lib/sessions/testing/redis-server'
import type { Operation } from 'effection'
import { percentile, summary } from './stats'
import { makeTempDir } from './temp-dir'

const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const CHATS = count('BENCH_CHATS', 1_000)
const OTHER_OWNERS = count('BENCH_OTHER_OWNERS', 4)
const LIST_RUNS = count('BENCH_LIST_RUNS', 200)
const LONG_CHAT_TURNS = count('BENCH_LONG_CHAT_TURNS', 100)
const LIST_TARGET_MS = 50
const LIMITS = { maxChats: 100_000, maxEvents: 100_000, maxBytes: 64 * 1024 * 1024 }

export interface ConversationMeasures {
  store: string
  /** `GET /api/chats` (first page, 50) for an identity with `CHATS` chats: ms per request. */
  firstPage: number[]
  /** Every page of the list, 200 at a time, cursor to cursor: ms for all `CHATS`. */
  wholeList: number[]
  /** `GET /api/chats/:id` of a chat of `LONG_CHAT_TURNS` turns: ms per request. */
  openLongChat: number[]
  /** One `appendEvents` of one event, as a streaming turn writes: ms per call. */
  append: number[]
}

/** Measures the chats on one store (opened by `useStore`), through the API handler the routes call. */
export async function measureConversations(name: string, useStore: () => Operation<ConversationStore>): Promise<ConversationMeasures> {
  const identity = createClientIdentity({ secret: randomBytes(32).toString('base64url') })
  const opened = await openInScope(function* () {
    return yield* useConversations({ store: yield* useStore(), limits: LIMITS })
  })
  try {
    const chats = opened.value
    const run = opened.run
    const app: ChatsApp = { conversations: chats, identity, limits: LIMITS, run }
    const first = identity.resolve(new Request('http://localhost/'))
    const cookie = first.headers['Set-Cookie']!.split(';')[0]!
    const owner = first.clientId

    // The identity's chats, and other identities' as many: each a booking's two turns.
    const append: number[] = []
    for (const who of [owner, ...Array.from({ length: OTHER_OWNERS }, (_, index) => `other-owner-${index}`)]) {
      for (let index = 0; index < CHATS; index++) {
        const { id } = await run(() => chats.create(who))
        const turn = await run(() => chats.startTurn(who, id, { text: `Book a flight number ${index}` }))
        for (const event of FIRST_TURN) {
          const started = performance.now()
          await run(() => chats.appendEvents(who, id, turn, [event]))
          append.push(performance.now() - started)
        }
        if (index % 2 === 0) {
          const second = await run(() => chats.startTurn(who, id, { pluginElicitResponses: [SEAT_ANSWER] }))
          await run(() => chats.appendEvents(who, id, second, SECOND_TURN))
        }
      }
    }

    const get = (path: string) =>
      handleChatsRequest({
        app,
        request: new Request(`http://localhost${path}`, { headers: { cookie } }),
        endpoint: path.startsWith('/api/chats?') ? { action: 'list' } : { action: 'get', id: path.slice('/api/chats/'.length) },
      })

    const firstPage: number[] = []
    for (let runIndex = 0; runIndex < LIST_RUNS; runIndex++) {
      const started = performance.now()
      const body = (await (await get('/api/chats?limit=50')).json()) as { chats: unknown[] }
      firstPage.push(performance.now() - started)
      if (body.chats.length !== Math.min(50, CHATS)) throw new Error(`the first page has ${body.chats.length} chats`)
    }

    const wholeList: number[] = []
    for (let runIndex = 0; runIndex < Math.max(10, LIST_RUNS / 10); runIndex++) {
      const started = performance.now()
      let seen = 0
      let cursor: string | undefined
      do {
        const page = (await (await get(`/api/chats?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { chats: unknown[]; next?: string }
        seen += page.chats.length
        cursor = page.next
      } while (cursor)
      wholeList.push(performance.now() - started)
      if (seen !== CHATS) throw new Error(`the list walked ${seen} chats of ${CHATS}`)
    }

    // A long chat: LONG_CHAT_TURNS turns of a message and an answer streamed in pieces.
    const { id: longId } = await run(() => chats.create(owner))
    for (let index = 0; index < LONG_CHAT_TURNS; index++) {
      const turn = await run(() => chats.startTurn(owner, longId, { text: `Message ${index}: tell me something about trains.` }))
      await run(() =>
        chats.appendEvents(owner, longId, turn, [
          ...Array.from({ length: 4 }, (_, piece) => ({ type: 'text' as const, content: `Piece ${piece} of the answer to message ${index}. ` })),
          { type: 'conversation_state', messages: [{ role: 'user', content: `Message ${index}` }] },
          { type: 'complete', text: '' },
        ]),
      )
    }
    const openLongChat: number[] = []
    for (let runIndex = 0; runIndex < Math.max(20, LIST_RUNS / 4); runIndex++) {
      const started = performance.now()
      const body = (await (await get(`/api/chats/${longId}`)).json()) as { chat: { turns: unknown[] } }
      openLongChat.push(performance.now() - started)
      if (body.chat.turns.length !== LONG_CHAT_TURNS) throw new Error('the long chat lost turns')
    }
    return { store: name, firstPage, wholeList, openLongChat, append }
  } finally {
    await opened.destroy()
  }
}

export function describeConversationMeasures(measures: ConversationMeasures): string {
  const verdict = percentile(measures.firstPage, 95) <= LIST_TARGET_MS ? 'meets' : 'misses'
  return [
    `${measures.store}: the list of ${CHATS} chats (other identities: ${OTHER_OWNERS} × ${CHATS})`,
    `  GET /api/chats, first page of 50     ${summary(measures.firstPage)}  — p95 ${verdict} the ${LIST_TARGET_MS} ms target`,
    `  all ${CHATS}, pages of 200             ${summary(measures.wholeList)}`,
    `  GET /api/chats/:id, ${LONG_CHAT_TURNS} turns (${LONG_CHAT_TURNS * 2} messages, ${LONG_CHAT_TURNS * 6} events)  ${summary(measures.openLongChat)}`,
    `  appendEvents, one event              ${summary(measures.append)}`,
  ].join('\n')
}

async function main() {
  const data = makeTempDir('conversations')
  console.log(describeConversationMeasures(await measureConversations('embedded', () => useEmbeddedConversationStore({ directory: data.path }))))
  data.remove()
  const redis = await startRedisServer()
  try {
    console.log(describeConversationMeasures(await measureConversations('redis', () => useRedisConversationStore({ url: redis.url }))))
  } finally {
    await redis.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
