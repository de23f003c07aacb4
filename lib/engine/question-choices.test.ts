import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { question } from '../tools/elicits'
import { createMcpTool } from '../tools/create-mcp-tool'
import { field } from '../tools/form-fields'
import type { AnyMcpTool } from '../tools/types'
import { elicitRequests, eventsOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

/** The chat on a local OpenAI-compatible server whose model calls `tool` once, then sums up its result. */
async function start(tool: AnyMcpTool) {
  scripted = await startScriptedChat({
    tools: [tool],
    respond: (body) =>
      body.messages.at(-1)!.role === 'tool'
        ? { text: `Result: ${String(body.messages.at(-1)!.content)}` }
        : { toolCalls: [{ id: 'call_1', name: tool.name, arguments: {} }] },
  })
  return scripted.client
}

const paints = [
  { id: 'p-1', name: 'White', finish: 'matt' },
  { id: 'p-2', name: 'Teal', finish: 'gloss' },
]

const paintTool = createMcpTool('paint_wall')
  .elicits({
    pickPaint: question({
      response: z.object({ paintId: z.string() }),
      context: z.object({ paints: z.array(z.object({ id: z.string(), name: z.string(), finish: z.string() })) }),
      form: (context) => ({ paintId: field.choice('Paint', context.paints.map((paint) => ({ value: paint.id, title: `${paint.name} (${paint.finish})` }))) }),
    }),
  })
  .execute(function* (_params, ctx) {
    for (;;) {
      const answer = yield* ctx.elicit('pickPaint', { message: 'Which paint?', paints })
      if (answer.action !== 'accept') return 'no paint'
      const paint = paints.find((candidate) => candidate.id === answer.content.paintId)
      if (paint) return paint.name
    }
  })

const nameTool = createMcpTool('name_boat')
  .elicits({ giveName: z.object({ name: z.string() }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('giveName', { message: 'What name?' })
    return answer.action === 'accept' ? answer.content.name : 'unnamed'
  })

describe('a question’s choices in plugin_elicit_request', () => {
  it('carry the titled choices of its form, on every ask', async () => {
    const client = await start(paintTool)
    const [request] = elicitRequests((await client.say('Paint the wall')).events)
    const choices = { paintId: [{ value: 'p-1', title: 'White (matt)' }, { value: 'p-2', title: 'Teal (gloss)' }] }
    expect(request).toMatchObject({ key: 'pickPaint', choices })

    const again = await client.answer([{ request: request!, result: { action: 'accept', content: { paintId: 'p-9' } } }])
    const [asked] = elicitRequests(again.events)
    expect(asked).toMatchObject({ key: 'pickPaint', choices })
    const done = await client.answer([{ request: asked!, result: { action: 'accept', content: { paintId: 'p-2' } } }])
    expect(eventsOf(done.events, 'tool_result')[0]).toMatchObject({ content: 'Teal' })
  })

  it('are left out when the question has none: the event has its context, its fields’ titles and its form', async () => {
    const client = await start(nameTool)
    const [request] = elicitRequests((await client.say('Name the boat')).events)
    expect(request).toBeDefined()
    expect(Object.keys(request!).sort()).toEqual(['callId', 'context', 'elicitId', 'fieldTitles', 'form', 'key', 'message', 'schema', 'sessionId', 'toolName', 'type'])
    expect(request!.fieldTitles).toEqual({ name: 'name' })
    // The form a native client gets, which the chat shows when no component answers the question.
    expect(request!.form).toMatchObject({ type: 'object', properties: { name: { title: 'name' } }, required: ['name'] })
  })
})

const seatTool = createMcpTool('pick_seat')
  .elicits({
    pickSeat: question({
      response: z.object({ row: z.number().int(), seat: z.string() }),
      context: z.object({ free: z.array(z.string()), usual: z.string() }),
      form: ({ free }) => ({
        seat: field.choice(
          'Seat',
          free.map((id) => ({ value: id, title: `Seat ${id}`, answer: { row: Number(id.slice(0, -1)), seat: id.slice(-1) } })),
        ),
      }),
      defaults: ({ usual }) => ({ row: Number(usual.slice(0, -1)), seat: usual.slice(-1) }),
    }),
  })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('pickSeat', { message: 'Which seat?', free: ['3A', '3B'], usual: '3B' })
    return answer.action === 'accept' ? `${answer.content.row}${answer.content.seat}` : 'none'
  })

describe('how a question’s answer is said, and what it starts from, in plugin_elicit_request', () => {
  it('carry the form’s field titles, what its choices stand for, and the question’s defaults', async () => {
    const client = await start(seatTool)
    const [request] = elicitRequests((await client.say('A seat')).events)
    expect(request).toMatchObject({
      fieldTitles: { seat: 'Seat' },
      choiceAnswers: { seat: { '3A': { row: 3, seat: 'A' }, '3B': { row: 3, seat: 'B' } } },
      defaults: { row: 3, seat: 'B' },
    })
  })
})
