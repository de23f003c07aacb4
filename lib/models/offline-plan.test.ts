import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { planOfflineReply } from './offline-plan'

const bookFlight: LanguageModelV3FunctionTool = {
  type: 'function',
  name: 'book_flight',
  inputSchema: { type: 'object', properties: { from: { type: 'string' }, destination: { type: 'string' } } },
}
const otherTool: LanguageModelV3FunctionTool = { ...bookFlight, name: 'check_weather' }

function ask(text: string, options: Omit<Partial<LanguageModelV3CallOptions>, 'prompt'> = {}) {
  return planOfflineReply({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }], ...options })
}

describe('planOfflineReply', () => {
  it('says what it can do with exactly the tools on offer', () => {
    const all = ['book_flight', 'tictactoe', 'pick_card'].map((name) => ({ ...bookFlight, name }))
    const everything = ask('What can you do?', { tools: all }).text
    expect(everything).toContain('book flights')
    expect(everything).toContain('play tic-tac-toe with you (“Let’s play tic-tac-toe”)')
    expect(everything).toContain('deal you cards to pick from (“Pick a card”')
    expect(ask('What can you do?', { tools: [all[1]!] }).text).toBe(
      "I'm the offline assistant — no API key needed. I can play tic-tac-toe with you (“Let’s play tic-tac-toe”).",
    )
    expect(ask('Hi', { tools: [otherTool] }).text).toBe(
      "Hello! I'm the offline assistant — no API key needed. No tools are on offer right now, so I can only talk.",
    )
  })

  it('calls book_flight with JSON-string inputs', () => {
    expect(ask('Book a flight from NYC to LAX', { tools: [bookFlight] })).toEqual({
      text: 'Let me find flights from NYC to LAX.',
      toolCalls: [{ toolName: 'book_flight', input: '{"from":"NYC","destination":"LAX"}' }],
    })
  })

  it('does not call tools when the tool choice is none, or book_flight is not offered', () => {
    expect(ask('Book a flight from NYC to LAX', { tools: [bookFlight], toolChoice: { type: 'none' } }).toolCalls).toEqual([])
    const withoutBooking = ask('Book a flight from NYC to LAX', { tools: [otherTool] })
    expect(withoutBooking.toolCalls).toEqual([])
    expect(withoutBooking.text).toContain("booking isn't available")
  })

  it('asks where from and where to when the route is missing', () => {
    const reply = ask('Book a flight to LAX', { tools: [bookFlight] })
    expect(reply.toolCalls).toEqual([])
    expect(reply.text).toContain('where from, and where to?')
  })

  it('greets back', () => {
    expect(ask('Hi there', { tools: [bookFlight] }).text).toMatch(/^Hello! I'm the offline assistant/)
  })

  it('answers a tip request even when tools are offered', () => {
    expect(ask('Any tips for travelling to Lisbon?', { tools: [bookFlight] }).text).toContain('Lisbon')
  })

  it('only books for the latest user message', () => {
    const reply = planOfflineReply({
      tools: [bookFlight],
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'Book a flight from NYC to LAX' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Which date?' }] },
      ],
    })
    expect(reply.toolCalls).toEqual([])
  })

  it('summarises an error-text result and a denied execution', () => {
    const reply = planOfflineReply({
      tools: [bookFlight],
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'Book a flight from NYC to LAX' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'a', toolName: 'book_flight', output: { type: 'error-text', value: 'Timed out.' } },
            { type: 'tool-result', toolCallId: 'b', toolName: 'book_flight', output: { type: 'execution-denied', reason: 'Not allowed' } },
          ],
        },
      ],
    })
    expect(reply.text).toBe('Sorry, the book_flight tool failed: Timed out.\n\nThe book_flight tool was not run: Not allowed')
  })
})
