import { describe, expect, it } from 'vitest'
import { namedToolCall } from './offline-named-call'

const toolNames = new Set(['everything__echo', 'files__list'])

describe('the offline model calls a tool named with its arguments', () => {
  it('hears "call <tool> with <json>", "use <tool>", "run the tool <tool>"', () => {
    expect(namedToolCall({ text: 'Call everything__echo with {"message": "hi"}', toolNames })).toEqual({ toolName: 'everything__echo', input: { message: 'hi' } })
    expect(namedToolCall({ text: 'please use files__list.', toolNames })).toEqual({ toolName: 'files__list', input: {} })
    expect(namedToolCall({ text: 'run the tool `files__list`', toolNames })).toEqual({ toolName: 'files__list', input: {} })
  })

  it('leaves everything else to the skills', () => {
    expect(namedToolCall({ text: 'Call mom with {"now": true}', toolNames })).toBeUndefined()
    expect(namedToolCall({ text: 'Call everything__echo with hi', toolNames })).toBeUndefined()
    expect(namedToolCall({ text: 'Call everything__echo with [1]', toolNames })).toBeUndefined()
    expect(namedToolCall({ text: 'Book a flight from NYC to LAX', toolNames })).toBeUndefined()
  })
})
