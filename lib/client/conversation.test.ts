import { describe, expect, it } from 'vitest'
import type { Message } from '../protocol/messages'
import { closeConversation, closeDanglingToolCalls } from './conversation'

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'book_flight', arguments: '{}' } })

describe('closeDanglingToolCalls', () => {
  it('leaves a complete conversation as it is', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Book' },
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: '{}' },
      { role: 'assistant', content: 'Done' },
    ]
    expect(closeDanglingToolCalls({ messages, reason: 'Stopped' })).toEqual(messages)
  })

  it('answers the tool calls that have no tool message, right after their assistant message', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Book two' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'b', content: '{}' },
    ]
    expect(closeDanglingToolCalls({ messages, reason: 'Stopped by the user.' })).toEqual([
      messages[0],
      messages[1],
      messages[2],
      { role: 'tool', tool_call_id: 'a', content: 'Error: Stopped by the user.' },
    ])
  })
})

describe('closeConversation', () => {
  it('adds the partial assistant text as an assistant message', () => {
    const messages: Message[] = [{ role: 'user', content: 'Hi' }]
    expect(closeConversation({ messages, partialText: 'Hel', reason: 'x' })).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hel' },
    ])
  })

  it('adds nothing for blank partial text and does not change its input', () => {
    const messages: Message[] = [{ role: 'user', content: 'Hi' }]
    const closed = closeConversation({ messages, partialText: '  ', reason: 'x' })
    expect(closed).toEqual(messages)
    expect(closed).not.toBe(messages)
  })
})
