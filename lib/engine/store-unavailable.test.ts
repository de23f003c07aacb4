import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { toChatFailure } from '../http/errors'
import { createMemorySessionStore, SessionStoreUnavailableError, type SessionStore } from '../sessions'
import { createMcpTool } from '../tools'
import { elicitRequests, eventsOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

const askTool = createMcpTool('ask')
  .description('Asks one question')
  .parameters(z.object({ question: z.string() }))
  .elicits({ answer: z.object({ text: z.string() }) })
  .execute(function* ({ question }, ctx) {
    const answer = yield* ctx.elicit('answer', { message: question })
    return answer.action === 'accept' ? answer.content.text : answer.action
  })

const STORE_DOWN = 'The session store (test) is unavailable: connection refused'
/** What every client is told, before streaming, in a stream, and in a tool's result. */
const TOLD = 'Sessions cannot be reached right now. Try again in a moment.'

/** A memory store that fails every call while `down`, as the Redis store does when Redis is away. */
function storeThatGoesDown() {
  const memory = createMemorySessionStore()
  const state = { down: false }
  const store = Object.fromEntries(
    Object.entries(memory).map(([name, method]) => [
      name,
      typeof method !== 'function'
        ? method
        : function* (...args: unknown[]) {
            if (state.down) throw new SessionStoreUnavailableError(STORE_DOWN)
            return yield* (method as (...args: unknown[]) => Generator<unknown, unknown>).apply(memory, args)
          },
    ]),
  ) as unknown as SessionStore
  return { store, state }
}

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

async function start() {
  const { store, state } = storeThatGoesDown()
  scripted = await startScriptedChat({
    tools: [askTool],
    useStore: function* () {
      return store
    },
    respond: (body) =>
      body.messages.at(-1)!.role === 'tool' ? { text: 'Noted.' } : { toolCalls: [{ id: 'call_0', name: 'ask', arguments: { question: 'Which colour?' } }] },
  })
  return { client: scripted.client, chat: scripted.chat, state }
}

describe('a session store that cannot be reached', () => {
  it('refuses an answer before streaming with a 503 store_unavailable, saying so in one sentence', async () => {
    const { client, state } = await start()
    const [question] = elicitRequests((await client.say('Ask me')).events)
    state.down = true
    const refused = await client.answer([{ request: question!, result: { action: 'accept', content: { text: 'red' } } }])
    expect(refused).toMatchObject({ status: 503, events: [], error: { code: 'store_unavailable', message: TOLD } })
  })

  it('gives a tool that cannot start a result the model reads, with the same sentence, and the turn goes on', async () => {
    const { client, state } = await start()
    state.down = true
    const turn = await client.say('Ask me')
    expect(turn.status).toBe(200)
    expect(eventsOf(turn.events, 'tool_error')).toEqual([expect.objectContaining({ name: 'ask', message: `The tool could not start: ${TOLD}` })])
    expect(eventsOf(turn.events, 'complete')).toEqual([expect.objectContaining({ text: 'Noted.' })])
  })

  it('makes the list of sessions a 503 with the same sentence', async () => {
    const { chat, state } = await start()
    state.down = true
    const failure = toChatFailure(await chat.listActive().catch((error: unknown) => error))
    expect(failure).toMatchObject({ status: 503, code: 'store_unavailable', message: TOLD })
    expect(await failure!.toResponse().json()).toEqual({ error: { code: 'store_unavailable', message: TOLD } })
  })
})
