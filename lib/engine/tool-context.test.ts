import { describe, expect, it } from 'vitest'
import type { Message } from '../protocol/messages'
import { toolContextOf } from './tool-context'

const call = (id: string): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'book_flight', arguments: '{"from":"NYC","destination":"LAX"}' } }],
})

describe('toolContextOf', () => {
  const conversation: Message[] = [
    { role: 'user', content: 'x'.repeat(100_000) },
    call('call_1'),
    { role: 'tool', tool_call_id: 'call_1', content: 'y'.repeat(300) },
    { role: 'assistant', content: 'Booked.' },
    { role: 'user', content: 'Another one' },
    call('call_2'),
    { role: 'user', content: 'later' },
  ]

  it('keeps everything up to the call when it fits', () => {
    expect(toolContextOf({ conversation: conversation.slice(1, 3), maxBytes: 16_384 })).toHaveLength(2)
    expect(toolContextOf({ conversation, callId: 'call_2', maxBytes: 1_000_000 })).toHaveLength(6)
  })

  it('keeps the most recent messages that fit, never a result without its call, always the call itself', () => {
    const kept = toolContextOf({ conversation, callId: 'call_2', maxBytes: 260 })
    expect(kept.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant'])
    expect(kept.at(-1)).toMatchObject({ tool_calls: [{ id: 'call_2' }] })
    expect(toolContextOf({ conversation, callId: 'call_2', maxBytes: 1 })).toEqual([expect.objectContaining({ role: 'assistant', tool_calls: expect.any(Array) })])
    // The tail starting at a tool result drops it rather than keep a result whose call is gone.
    const fromResult = toolContextOf({ conversation: conversation.slice(0, 4), maxBytes: 400 })
    expect(fromResult[0]!.role).not.toBe('tool')
  })
})
