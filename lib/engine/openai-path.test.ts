import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import type { SeatMap, Train } from '@/fixtures/book-train/trains'
import type { ChatCompletionRequestBody, ScriptedReply } from '../models/testing/openai-compatible-server'
import { createMcpTool, type AnyMcpTool } from '../tools'
import { createChatTestClient, elicitRequests, eventsOf, textOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

async function start(respond: (body: ChatCompletionRequestBody) => ScriptedReply, tools: AnyMcpTool[] = [bookTrainTool]) {
  scripted = await startScriptedChat({ respond, tools })
  return scripted.client
}

describe('an OpenAI-compatible model drives the booking', () => {
  it('calls the tool from streamed chunks, samples the tip through the same model, and summarises', async () => {
    const client = await start((body) => {
      const last = body.messages.at(-1)!
      if (!body.tools) return { text: 'At Lyon, give yourself ten minutes to find the platform.' }
      if (last.role === 'tool') return { text: `Booked: ${JSON.parse(String(last.content)).ticketNumber}` }
      return { text: 'Searching.', toolCalls: [{ id: 'call_0', name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }] }
    })

    const first = await client.say('Book a train from Paris to Lyon')
    expect(textOf(first.events)).toBe('Searching.')
    const [trainRequest] = elicitRequests(first.events)
    expect(trainRequest).toMatchObject({ sessionId: expect.stringMatching(/^call_0_/), key: 'pickTrain' })
    const callId = trainRequest!.callId

    const trains = trainRequest!.context.trains as Train[]
    const second = await client.answer([{ request: trainRequest!, result: { action: 'accept', content: { trainId: trains[0]!.id } } }])
    const [seatRequest] = elicitRequests(second.events)
    const seatMap = seatRequest!.context.seatMap as SeatMap
    const free = seatMap.letters.find((letter) => !seatMap.taken.includes(`${seatMap.lastRow}${letter}`))!

    const third = await client.answer([{ request: seatRequest!, result: { action: 'accept', content: { row: seatMap.lastRow, seat: free } } }])
    const ticket = JSON.parse(eventsOf(third.events, 'tool_result')[0]!.content)
    expect(ticket).toMatchObject({ status: 'confirmed', seat: `${seatMap.lastRow}${free}`, tip: 'At Lyon, give yourself ten minutes to find the platform.' })
    expect(textOf(third.events)).toBe(`Booked: ${ticket.ticketNumber}`)

    const requests = scripted!.server.requests
    expect(requests).toHaveLength(3)
    expect(requests[0]!.tools?.map((tool) => tool.function.name)).toEqual(['book_train'])
    expect(requests[0]!.messages[0]).toMatchObject({ role: 'system' })
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('travel tip') })
    // The final call sees real tool-call and tool-result messages, not stringified objects.
    expect(requests[2]!.messages.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: callId, type: 'function', function: { name: 'book_train', arguments: '{"from":"Paris","to":"Lyon"}' } }] },
      { role: 'tool', tool_call_id: callId },
    ])
  })

  it('gives every call a server-unique id when the model says call_0 each time: no two chats or browsers share a session', async () => {
    const client = await start((body) => {
      const last = body.messages.at(-1)!
      return last.role === 'tool'
        ? { text: 'Done.' }
        : { toolCalls: [{ id: 'call_0', name: 'book_train', arguments: { from: 'Paris', to: 'Lyon' } }] }
    })
    const first = elicitRequests((await client.say('Book a train')).events)[0]!
    await client.answer([{ request: first, result: { action: 'decline' } }])
    const second = elicitRequests((await client.say('Book another')).events)[0]!
    // "New chat" in the same browser: a fresh conversation, the same cookie, first sessions still waiting.
    client.messages = []
    const third = elicitRequests((await client.say('Book a train')).events)[0]!
    const waitingAlongside = elicitRequests((await client.say('Book a train')).events)[0]!
    // Another browser.
    const stranger = createChatTestClient({ chat: scripted!.chat })
    const theirs = elicitRequests((await stranger.say('Book a train')).events)[0]!
    const ids = [first, second, third, waitingAlongside, theirs].map((request) => request.sessionId)
    for (const id of ids) expect(id).toMatch(/^call_0_/)
    expect(new Set(ids).size).toBe(ids.length)
    expect(scripted!.server.requests.length).toBeGreaterThanOrEqual(ids.length)
    // Each session answers to its own browser.
    const answered = await stranger.answer([{ request: theirs, result: { action: 'decline' } }])
    expect(JSON.parse(eventsOf(answered.events, 'tool_result')[0]!.content)).toMatchObject({ status: 'cancelled' })
    client.messages = []
    const mine = await client.say('Book a train')
    expect(elicitRequests(mine.events)).toHaveLength(1)
  })
})

describe('turn limits and failures', () => {
  const ping = createMcpTool('ping')
    .description('Answers pong')
    .parameters(z.object({}))
    .elicits({})
    .execute(function* () {
      return 'pong'
    })

  it('stops a model that keeps calling tools after the iteration bound', async () => {
    let calls = 0
    const client = await start(() => ({ toolCalls: [{ id: `call_${calls++}`, name: 'ping', arguments: {} }] }), [ping])
    const turn = await client.say('ping forever')
    expect(eventsOf(turn.events, 'tool_result')).toHaveLength(8)
    expect(eventsOf(turn.events, 'error')[0]).toMatchObject({ code: 'iteration_limit' })
    expect(turn.events.at(-1)?.type).toBe('conversation_state')
  })

  it('reports an unknown tool to the model as a tool error and carries on', async () => {
    const client = await start((body) =>
      body.messages.at(-1)!.role === 'tool' ? { text: 'That tool does not exist.' } : { toolCalls: [{ id: 'call_x', name: 'launch_rocket', arguments: {} }] },
    [ping])
    const turn = await client.say('launch')
    expect(eventsOf(turn.events, 'tool_error')[0]).toMatchObject({
      id: expect.stringMatching(/^call_x_/),
      name: 'launch_rocket',
      message: expect.stringContaining('no tool named'),
    })
    expect(textOf(turn.events)).toBe('That tool does not exist.')
  })

  it('turns invalid tool arguments into a tool error the model sees', async () => {
    const client = await start((body) =>
      body.messages.at(-1)!.role === 'tool'
        ? { text: `Saw: ${body.messages.at(-1)!.content}` }
        : { toolCalls: [{ id: 'call_bad', name: 'book_train', arguments: { from: 'Paris' } }] },
    )
    const turn = await client.say('book')
    expect(eventsOf(turn.events, 'tool_error')[0]?.message).toContain('Invalid arguments for book_train: to')
    expect(textOf(turn.events)).toContain('Invalid arguments')
  })

  it('reports a failing model as an error event and keeps the conversation consistent', async () => {
    const client = await start(() => {
      throw new Error('model exploded')
    })
    const turn = await client.say('hello')
    expect(turn.status).toBe(200)
    expect(eventsOf(turn.events, 'error')[0]).toMatchObject({ code: 'turn_failed' })
    expect(turn.events.at(-1)).toMatchObject({ type: 'conversation_state', messages: [{ role: 'user', content: 'hello' }] })
  })
})
