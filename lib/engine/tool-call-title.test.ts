import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { AnyMcpTool } from '../tools/types'
import { eventsOf } from './testing/chat-test-client'
import { startScriptedChat, type ScriptedChat } from './testing/scripted-chat'

let scripted: ScriptedChat | undefined
afterEach(async () => {
  await scripted?.close()
  scripted = undefined
})

/** The chat on a local OpenAI-compatible server whose model calls each tool once with `args`, then sums up. */
async function start(tools: AnyMcpTool[], args: Record<string, unknown>) {
  scripted = await startScriptedChat({
    tools,
    respond: (body) =>
      body.messages.at(-1)!.role === 'tool'
        ? { text: 'Done.' }
        : { toolCalls: tools.map((tool, index) => ({ id: `call_${index}`, name: tool.name, arguments: args })) },
  })
  return scripted.client
}

const meeting = createMcpTool('schedule_meeting')
  .parameters(z.object({ attendee: z.string(), topic: z.string().default('a chat') }))
  .title(({ attendee, topic }) => `Meeting with ${attendee} · ${topic}`)
  .elicits({})
  .execute(function* () {
    return 'scheduled'
  })

const untitled = createMcpTool('note').parameters(z.object({ attendee: z.string() })).elicits({}).execute(function* () {
  return 'noted'
})

describe('a tool call’s title in tool_calls', () => {
  it('is the tool’s title for the call’s arguments, and absent for a tool without one', async () => {
    const client = await start([meeting, untitled], { attendee: 'Dana' })
    const [announced] = eventsOf((await client.say('Meet Dana')).events, 'tool_calls')
    // The ids are the server's own (it makes every call id unique).
    expect(announced!.calls.map(({ id: _id, ...call }) => call)).toEqual([
      { name: 'schedule_meeting', arguments: { attendee: 'Dana' }, title: 'Meeting with Dana · a chat' },
      { name: 'note', arguments: { attendee: 'Dana' } },
    ])
  })

  it('is absent when the arguments are not the tool’s: the call itself fails as it always did', async () => {
    const client = await start([meeting], { who: 'Dana' })
    const { events } = await client.say('Meet someone')
    expect(eventsOf(events, 'tool_calls')[0]!.calls[0]).not.toHaveProperty('title')
    expect(eventsOf(events, 'tool_error')).toHaveLength(1)
  })
})
