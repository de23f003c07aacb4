import { describe, expect, it } from 'vitest'
import type { Chat } from './chat'
import { chatToMarkdown } from './markdown-export'
import { SEAT_QUESTION } from './testing/chat-events'

const base: Omit<Chat, 'turns'> = { id: 'x'.repeat(22), title: 'Odd cases', createdAt: 0, updatedAt: Date.UTC(2026, 10, 26), waitingCalls: [] }

describe('chatToMarkdown', () => {
  it('says a declined question, a failed tool, a stop and a failed turn in words', () => {
    const markdown = chatToMarkdown({
      ...base,
      turns: [
        { input: { text: 'Book it' }, events: [{ type: 'tool_calls', calls: [{ id: 'c1', name: 'book_flight', arguments: {} }] }, SEAT_QUESTION] },
        { input: { pluginElicitResponses: [{ sessionId: 's', callId: 'c1', elicitId: SEAT_QUESTION.elicitId, result: { action: 'decline' } }] }, events: [{ type: 'tool_error', id: 'c1', name: 'book_flight', message: 'No seat, no booking.' }] },
        { input: { pluginAbort: { sessionId: 's', reason: 'changed my mind' } }, events: [{ type: 'error', code: 'turn_failed', message: 'The model did not answer.' }] },
      ],
    })
    expect(markdown).toContain('_Last changed 2026-11-26T00:00:00.000Z._')
    expect(markdown).toContain('**Answer to “Pick a seat on UA 123”:** declined')
    expect(markdown).toContain('**book_flight failed:** No seat, no booking.')
    expect(markdown).toContain('**Stopped** (changed my mind).')
    expect(markdown).toContain('**The turn failed:** The model did not answer.')
  })

  it('keeps a result with backticks inside its block, and titles an untitled chat', () => {
    const markdown = chatToMarkdown({
      ...base,
      title: '',
      turns: [{ input: { text: 'Show code' }, events: [{ type: 'tool_result', id: 'c1', name: 'run', content: 'before\n```\nafter' }] }],
    })
    expect(markdown.startsWith('# Untitled chat\n')).toBe(true)
    expect(markdown).toContain('````\nbefore\n```\nafter\n````')
  })

  it('uses the turn’s complete text when the answer did not stream in pieces', () => {
    const markdown = chatToMarkdown({ ...base, turns: [{ input: { text: 'Hi' }, events: [{ type: 'complete', text: 'Hello there.' }] }] })
    expect(markdown).toContain('## Assistant\n\nHello there.')
  })
})
