import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callTitleOf, MAX_CALL_TITLE } from './call-title'
import { createMcpTool } from './create-mcp-tool'

const trip = createMcpTool('trip')
  .parameters(z.object({ from: z.string().trim(), to: z.string(), nights: z.number().int().default(2) }))
  .title(({ from, to, nights }) => `${from} → ${to}, ${nights} nights`)
  .elicits({})
  .execute(function* () {
    return 'ok'
  })

describe('callTitleOf', () => {
  it('is the tool’s title for the call’s arguments, parsed as the tool parses them', () => {
    expect(trip.title).toBeTypeOf('function')
    expect(callTitleOf(trip, { from: ' NYC ', to: 'LAX' })).toBe('NYC → LAX, 2 nights')
  })

  it('is no title for a tool without one, arguments the tool would refuse, or a title function that fails', () => {
    const plain = createMcpTool('plain').elicits({}).execute(function* () {})
    expect(callTitleOf(plain, {})).toBeUndefined()
    expect(callTitleOf(undefined, {})).toBeUndefined()
    expect(callTitleOf(trip, { from: 'NYC' })).toBeUndefined()
    const failing = createMcpTool('failing')
      .parameters(z.object({ name: z.string().optional() }))
      .title(({ name }) => name!.toUpperCase())
      .elicits({})
      .execute(function* () {})
    expect(callTitleOf(failing, {})).toBeUndefined()
    const empty = createMcpTool('empty').title(() => '  ').elicits({}).execute(function* () {})
    expect(callTitleOf(empty, {})).toBeUndefined()
  })

  it('is one line, cut at a word when too long', () => {
    const long = createMcpTool('long')
      .parameters(z.object({ text: z.string() }))
      .title(({ text }) => text)
      .elicits({})
      .execute(function* () {})
    expect(callTitleOf(long, { text: 'Meeting\n  with Dana' })).toBe('Meeting with Dana')
    const title = callTitleOf(long, { text: 'word '.repeat(60) })!
    expect(title.length).toBeLessThanOrEqual(MAX_CALL_TITLE)
    expect(title).toMatch(/\bword…$/)
    expect(title).not.toMatch(/wor…$/)
  })
})
