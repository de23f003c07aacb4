import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { createOfflineModel } from '../models'
import type { ChatCompletionRequestBody, ScriptedReply } from '../models/testing/openai-compatible-server'
import { createMcpTool, type AnyMcpTool } from '../tools'
import { createChatServer, type ChatServer, type ChatServerOptions } from './chat-server'
import { handleChatRequest } from '../http/handle-chat-request'
import { createInFlightLimiter } from '../http/in-flight-limiter'
import { createAdmission, type Admission } from '../http/admission'
import type { PluginElicitRequestEvent } from '../protocol/events'
import { createChatTestClient, elicitRequests, eventsOf, textOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function scripted(
  respond: (body: ChatCompletionRequestBody) => ScriptedReply | PromiseLike<ScriptedReply>,
  options: Partial<Omit<ChatServerOptions, 'model'>> = {},
): Promise<ScriptedChat> {
  const chat = await startScriptedChat({ respond, tools: [ping, bookTrainTool], ...options })
  closers.push(() => chat.close())
  return chat
}

async function offline(options: Partial<Omit<ChatServerOptions, 'model'>> = {}): Promise<ChatServer> {
  const chat = await createChatServer({ model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }), tools: [bookTrainTool], ...options })
  closers.push(() => chat.close())
  return chat
}

const ping: AnyMcpTool = createMcpTool('ping')
  .description('Answers pong')
  .parameters(z.object({}))
  .elicits({})
  .execute(function* () {
    return 'pong'
  })

describe('tool calls per model step', () => {
  it('runs the first 8 of 12 calls; the others get a tool error the model reads, and the turn completes', async () => {
    const { client } = await scripted((body) =>
      body.messages.at(-1)!.role === 'tool'
        ? { text: `Ran ${body.messages.filter((message) => message.role === 'tool' && message.content === 'pong').length}.` }
        : { toolCalls: Array.from({ length: 12 }, (_, index) => ({ id: `call_${index}`, name: 'ping', arguments: {} })) },
    )
    const turn = await client.say('ping a dozen times')
    expect(eventsOf(turn.events, 'tool_result')).toHaveLength(8)
    const refused = eventsOf(turn.events, 'tool_error')
    expect(refused).toHaveLength(4)
    for (const error of refused) expect(error.message).toContain('at most 8 tool calls')
    expect(textOf(turn.events)).toBe('Ran 8.')
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
  })

  it('caps a message that fans out into many trips with the offline model: at most the cap wait', async () => {
    const chat = await offline({ maxToolCallsPerStep: 3 })
    const client = createChatTestClient({ chat })
    const stops = ['Paris', 'Lyon', 'Nice', 'Lille', 'Nantes', 'Brest', 'Dijon', 'Metz', 'Reims', 'Tours', 'Caen', 'Rouen']
    const turn = await client.say(`Book a train from ${stops.join(' to ')}`)
    expect(turn.status).toBe(200)
    expect(elicitRequests(turn.events).length).toBeLessThanOrEqual(3)
    expect((await chat.listActive()).length).toBeLessThanOrEqual(3)
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete' })
  })
})

describe('open sessions per client and in total', () => {
  it('refuses a tool past the per-client limit with a tool error naming it; answering one makes room', async () => {
    const chat = await offline({ sessionLimits: { maxOpenPerClient: 2 } })
    const client = createChatTestClient({ chat })
    const first = elicitRequests((await client.say('Book a train from Paris to Lyon')).events)[0]!
    const firstConversation = client.messages
    client.messages = []
    expect(elicitRequests((await client.say('Book a train from Lille to Nantes')).events)).toHaveLength(1)
    client.messages = []
    const third = await client.say('Book a train from Brest to Dijon')
    expect(elicitRequests(third.events)).toHaveLength(0)
    expect(eventsOf(third.events, 'tool_error')[0]?.message).toMatch(/already has 2 tools waiting/)
    // The refused tool ran only up to its first write, which the limit refused: none of its progress is shown.
    expect(eventsOf(third.events, 'plugin_progress')).toEqual([])
    expect(third.events.at(-1)).toMatchObject({ type: 'complete' })

    // Another browser is not counted against this one.
    const other = createChatTestClient({ chat })
    expect(elicitRequests((await other.say('Book a train from Paris to Lyon')).events)).toHaveLength(1)

    // Stopping one makes room.
    client.messages = firstConversation
    await client.abort(first.sessionId)
    client.messages = []
    expect(elicitRequests((await client.say('Book a train from Brest to Dijon')).events)).toHaveLength(1)
  })

  it('refuses a tool past the server-wide limit, for every browser', async () => {
    const chat = await offline({ sessionLimits: { maxOpen: 2 } })
    const browsers = [createChatTestClient({ chat }), createChatTestClient({ chat }), createChatTestClient({ chat })]
    const [a, b] = await Promise.all(browsers.slice(0, 2).map((browser) => browser.say('Book a train from Paris to Lyon')))
    expect(elicitRequests(a!.events)).toHaveLength(1)
    expect(elicitRequests(b!.events)).toHaveLength(1)
    const refused = await browsers[2]!.say('Book a train from Paris to Lyon')
    expect(eventsOf(refused.events, 'tool_error')[0]?.message).toMatch(/the server has 2 tools waiting/)
    // Stopping one makes room.
    const request = elicitRequests(a!.events)[0]!
    await browsers[0]!.abort(request.sessionId)
    browsers[2]!.messages = []
    expect(elicitRequests((await browsers[2]!.say('Book a train from Paris to Lyon')).events)).toHaveLength(1)
  })
})

describe('tools started per client address', () => {
  it('keeps one address, however many identities it makes, from starting more than its share of tools', async () => {
    const chat = await offline({ toolStartsPerAddress: { burst: 3, perSecond: 0.001 } })
    const post = (address: string) =>
      handleChatRequest({
        request: new Request('http://localhost/api/chat', {
          method: 'POST',
          // No cookie: a new identity every time.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Book a train from Paris to Lyon' }] }),
        }),
        chat,
      }).then(async (response) => (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line)))
    const turns = []
    for (let index = 0; index < 5; index++) turns.push(await post('203.0.113.7'))
    const started = turns.filter((events) => events.some((event: { type: string }) => event.type === 'plugin_elicit_request'))
    expect(started).toHaveLength(3)
    const refused = turns.at(-1)!.find((event: { type: string }) => event.type === 'tool_error')
    expect(refused.message).toMatch(/too many tools were started from your address/)
    expect(turns.at(-1)!.at(-1)).toMatchObject({ type: 'complete' })
    // Another address still starts tools.
    expect((await post('198.51.100.1')).some((event: { type: string }) => event.type === 'plugin_elicit_request')).toBe(true)
  })
})

describe('model calls', () => {
  it('fails a model call that takes longer than the timeout with a model_timeout error, conversation intact', async () => {
    // The model never answers: only the time-out can end the turn, and its error says which.
    const { client } = await scripted(() => new Promise<never>(() => {}), { modelTimeoutMs: 150 })
    const turn = await client.say('hello?')
    expect(turn.status).toBe(200)
    expect(eventsOf(turn.events, 'error')[0]).toMatchObject({ code: 'model_timeout', message: expect.stringContaining('0.1 s') })
    expect(turn.events.at(-1)).toMatchObject({ type: 'conversation_state', messages: [{ role: 'user', content: 'hello?' }] })
  })

  it('fails a model call that stalls mid-stream with a model_timeout error, after the text it had streamed', async () => {
    // The offline model streams its first piece at once, then waits 10 s before the next; on a
    // clock the test moves, the call fails when its 200 ms are up, not a moment before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const healthy = await offline({ modelTimeoutMs: 200 })
      const stalling = await createChatServer({ model: createOfflineModel({ delayMs: 10_000 }), tools: [], modelTimeoutMs: 200 })
      closers.push(() => stalling.close())
      const client = createChatTestClient({ chat: stalling })
      let ended = false
      const saying = client.say('Hello!').finally(() => (ended = true))
      await vi.advanceTimersByTimeAsync(199)
      expect(ended).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      const turn = await saying
      expect(turn.status).toBe(200)
      const streamed = textOf(turn.events)
      expect(streamed.length).toBeGreaterThan(0)
      expect(eventsOf(turn.events, 'error')).toEqual([expect.objectContaining({ code: 'model_timeout' })])
      // Nothing after the time-out but the conversation as it was: the partial reply is not kept.
      expect(turn.events.at(-1)).toMatchObject({ type: 'conversation_state', messages: [{ role: 'user', content: 'Hello!' }] })
      // With the same limit, a model that does not stall is answered in full (no time passes on this clock).
      expect(textOf((await createChatTestClient({ chat: healthy }).say('Hello!')).events)).toMatch(/^Hello/)
    } finally {
      vi.useRealTimers()
    }
  })

  it('fails a tool whose sample takes longer than the timeout, with a tool error the model reads', async () => {
    const musing = createMcpTool('muse')
      .description('Asks the model something')
      .parameters(z.object({}))
      .elicits({})
      .execute(function* (_params, ctx) {
        return (yield* ctx.sample({ prompt: 'Think about it' })).text
      })
    // On a clock the test moves: the chat's own steps (answered at once) are held to the same
    // limit, and no time passes for them however slow the machine; the sample's 2 s pass once it is asked.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let sampleAsked: () => void = () => {}
    const sampled = new Promise<void>((resolve) => (sampleAsked = resolve))
    const chat = await startScriptedChat({
      tools: [musing],
      modelTimeoutMs: 2_000,
      respond: (body) => {
        if (!body.tools) {
          sampleAsked()
          return new Promise<never>(() => {})
        }
        return body.messages.at(-1)!.role === 'tool' ? { text: 'The tool failed.' } : { toolCalls: [{ id: 'call_m', name: 'muse', arguments: {} }] }
      },
    })
    closers.push(() => chat.close())
    let turn: Awaited<ReturnType<typeof chat.client.say>> | undefined
    try {
      const saying = chat.client.say('muse').then((said) => (turn = said))
      await sampled
      await vi.advanceTimersByTimeAsync(1_999)
      expect(turn).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await saying
    } finally {
      vi.useRealTimers()
    }
    if (!turn) throw new Error('the turn did not end')
    expect(eventsOf(turn.events, 'tool_error')[0]).toMatchObject({ name: 'muse', message: expect.stringContaining('did not answer the sample within 2 s') })
    expect(turn.events.at(-1)).toMatchObject({ type: 'complete', text: 'The tool failed.' })
  })

  it('asks each chat step for at most the output-token cap', async () => {
    const chat = await scripted(() => ({ text: 'Short.' }), { maxOutputTokens: 123 })
    await chat.client.say('hello')
    expect(chat.server.requests[0]).toMatchObject({ max_tokens: 123 })
  })

  it('stops after the model-step limit', async () => {
    let calls = 0
    const { client } = await scripted(() => ({ toolCalls: [{ id: `call_${calls++}`, name: 'ping', arguments: {} }] }), { maxIterations: 3 })
    const turn = await client.say('ping forever')
    expect(eventsOf(turn.events, 'tool_result')).toHaveLength(3)
    expect(eventsOf(turn.events, 'error')[0]).toMatchObject({ code: 'iteration_limit', message: expect.stringContaining('3 model calls') })
  })
})

describe('request rate per client address', () => {
  const post = (chat: ChatServer, admission: Admission, address: string) =>
    handleChatRequest({
      request: new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      }),
      chat,
      admission,
    })

  it('never limits a dozen requests in a row with the default limits; answers a flood with 429, Retry-After and a JSON error', async () => {
    const chat = await offline()
    // The clock stands still, so the test does not depend on how fast this machine answers.
    const admission = createAdmission({ burst: 60, perSecond: 5, globalBurst: 400, globalPerSecond: 200, now: () => 0 })
    for (let index = 0; index < 12; index++) {
      const response = await post(chat, admission, '203.0.113.7')
      expect(response.status).toBe(200)
      await response.text()
    }
    const statuses: number[] = []
    let limited: Response | undefined
    for (let index = 0; index < 50; index++) {
      const response = await post(chat, admission, '203.0.113.7')
      statuses.push(response.status)
      if (response.status === 429) limited ??= response
      else await response.text()
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(48)
    expect(statuses.filter((status) => status === 429)).toHaveLength(2)
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true)
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await limited!.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringContaining('your address'), scope: 'address' } })
    // Another address is served meanwhile.
    const other = await post(chat, admission, '198.51.100.1')
    expect(other.status).toBe(200)
    await other.text()
  })
})

const contextTrains = (question: PluginElicitRequestEvent) =>
  question.context.trains as Array<{ id: string }>

describe('work in progress first when the server is spent', () => {
  /** A server-wide budget spent by new work from many addresses (the clock stands still, so nothing refills). */
  async function spentServer() {
    const chat = await offline()
    const admission = createAdmission({ burst: 60, perSecond: 5, globalBurst: 40, globalPerSecond: 20, now: () => 0 })
    const person = createChatTestClient({ chat, admission, address: '192.0.2.10' })
    const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
    const statuses: number[] = []
    for (let index = 0; statuses.filter((status) => status === 429).length < 20; index++) {
      const flood = createChatTestClient({ chat, admission, address: `10.${index}.0.1` })
      statuses.push((await flood.post({ messages: 'junk' })).status)
    }
    return { chat, admission, person, question, statuses }
  }

  it('answers the question the server waits on, and hears a Stop, while new work is refused', async () => {
    const { chat, admission, person, question, statuses } = await spentServer()
    expect(statuses.filter((status) => status === 400).length).toBeGreaterThan(0)
    const newcomer = createChatTestClient({ chat, admission, address: '10.200.0.1' })
    expect(await newcomer.say('Book a train from Lille to Nantes')).toMatchObject({ status: 429, error: { code: 'rate_limited', scope: 'server' } })
    // A body that cannot even be read is charged as new work too.
    const junk = createChatTestClient({ chat, admission, address: '10.201.0.1' })
    expect(await junk.send('{not json').then((response) => response.status)).toBe(429)

    const seat = await person.answer([{ request: question, result: { action: 'accept', content: { trainId: contextTrains(question)[0]!.id } } }])
    expect(seat.status).toBe(200)
    const seatQuestion = elicitRequests(seat.events)[0]!
    expect(seatQuestion.key).toBe('pickSeat')
    const stopped = await person.abort(seatQuestion.sessionId)
    expect(stopped.status).toBe(200)
    expect(eventsOf(stopped.events, 'tool_error')[0]?.message ?? '').toMatch(/stop/i)
  })

  it('charges a forged, a foreign or a repeated answer as new work', async () => {
    const { chat, admission, person, question } = await spentServer()
    const answer = { sessionId: question.sessionId, callId: question.callId, elicitId: question.elicitId, result: { action: 'decline' as const } }
    // Another browser (its own identity) naming this person's call, and a made-up id.
    const stranger = createChatTestClient({ chat, admission, address: '192.0.2.10' })
    expect((await stranger.post({ messages: person.messages, pluginElicitResponses: [answer] })).status).toBe(429)
    const forged = { ...answer, sessionId: 'call_0', callId: 'call_0' }
    expect((await person.post({ messages: person.messages, pluginElicitResponses: [forged] })).status).toBe(429)
    // The genuine answer goes through once; the same answer again is stale.
    const conversation = person.messages
    expect((await person.post({ messages: conversation, pluginElicitResponses: [answer] })).status).toBe(200)
    expect((await person.post({ messages: conversation, pluginElicitResponses: [answer] })).status).toBe(429)
  })
})

describe('requests in flight per client address', () => {
  it('answers a request past the limit with 429 until an earlier answer has ended', async () => {
    const chat = await offline()
    const inFlight = createInFlightLimiter({ maxPerAddress: 2 })
    const post = (address: string) =>
      handleChatRequest({
        request: new Request('http://localhost/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
        }),
        chat,
        inFlight,
      })
    // Two answers not read yet: both still in flight.
    const first = await post('203.0.113.7')
    const second = await post('203.0.113.7')
    const third = await post('203.0.113.7')
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429])
    expect(await third.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringContaining('still being answered') } })
    expect(third.headers.get('retry-after')).toBe('1')
    // Another address is not counted against this one.
    const other = await post('198.51.100.1')
    expect(other.status).toBe(200)
    await other.text()
    // One read to its end, one cancelled: both free their places.
    await first.text()
    await second.body!.cancel()
    const again = [await post('203.0.113.7'), await post('203.0.113.7')]
    expect(again.map((response) => response.status)).toEqual([200, 200])
    await Promise.all(again.map((response) => response.text()))
    expect(inFlight.size).toBe(0)
    // A refusal before streaming frees its place too.
    const refused = await handleChatRequest({
      request: new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.7' }, body: 'x' }),
      chat,
      inFlight,
    })
    expect(refused.status).toBe(415)
    expect(inFlight.size).toBe(0)
  })
})
