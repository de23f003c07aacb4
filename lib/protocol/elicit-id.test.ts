import { describe, expect, it } from 'vitest'
import { formatElicitId, parseElicitId } from './elicit-id'

describe('formatElicitId', () => {
  it('writes toolName/key/callId/seq', () => {
    expect(formatElicitId({ toolName: 'book_flight', key: 'pickFlight', callId: 'call_abc123', seq: 4 })).toBe(
      'book_flight/pickFlight/call_abc123/4',
    )
  })

  it('escapes a call id that contains "/" so the id still has four parts', () => {
    const formatted = formatElicitId({ toolName: 'book_flight', key: 'pickSeat', callId: 'chat/42/call-7', seq: 9 })
    expect(formatted.split('/')).toHaveLength(4)
    expect(formatted).toBe('book_flight/pickSeat/chat%2F42%2Fcall-7/9')
  })
})

describe('parseElicitId', () => {
  it.each([
    { toolName: 'book_flight', key: 'pickFlight', callId: 'call_abc123', seq: 1 },
    { toolName: 'book_flight', key: 'pickSeat', callId: 'chat/42/call-7', seq: 12 },
    { toolName: 't', key: 'k', callId: 'a b%c?d#e', seq: 3 },
  ])('round-trips $callId', (id) => {
    expect(parseElicitId(formatElicitId(id))).toEqual(id)
  })

  it.each([
    ['an empty string', ''],
    ['too few parts', 'book_flight/pickFlight/4'],
    ['too many parts (an unescaped "/" in the call id)', 'book_flight/pickFlight/chat/42/4'],
    ['an empty tool name', '/pickFlight/call-1/4'],
    ['an empty key', 'book_flight//call-1/4'],
    ['an empty call id', 'book_flight/pickFlight//4'],
    ['an empty seq', 'book_flight/pickFlight/call-1/'],
    ['a seq that is not a number', 'book_flight/pickFlight/call-1/four'],
    ['a seq of zero', 'book_flight/pickFlight/call-1/0'],
    ['a negative seq', 'book_flight/pickFlight/call-1/-2'],
    ['a fractional seq', 'book_flight/pickFlight/call-1/1.5'],
    ['a call id that is not valid percent-encoding', 'book_flight/pickFlight/call%E0%A4%A/4'],
  ])('returns undefined for %s', (_label, text) => {
    expect(parseElicitId(text)).toBeUndefined()
  })
})
