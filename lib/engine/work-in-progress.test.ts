import { describe, expect, it } from 'vitest'
import { createCallIdIssuer } from './call-ids'
import { createWorkInProgress } from './work-in-progress'

function setUp() {
  const callIds = createCallIdIssuer()
  const work = createWorkInProgress({ callIds })
  const call = callIds.issue('call_0', 'me')
  const answer = (content: unknown = { flightId: 'SH-769' }, sessionId = call) => ({
    messages: [],
    pluginElicitResponses: [{ sessionId, callId: sessionId, elicitId: `book_flight/pickFlight/${sessionId}/1`, result: { action: 'accept', content } }],
  })
  return { callIds, work, call, answer }
}

describe('createWorkInProgress', () => {
  it('puts first an answer or a Stop naming a call issued to this client', () => {
    const { work, call, answer } = setUp()
    expect(work.workOf(answer(), 'me')).toBe('continue')
    expect(work.workOf({ messages: [], pluginAbort: { sessionId: call } }, 'me')).toBe('continue')
  })

  it('charges as new work: a message, a forged id, another client’s call, junk', () => {
    const { work, call, answer } = setUp()
    expect(work.workOf({ messages: [{ role: 'user', content: 'hi' }] }, 'me')).toBe('new')
    expect(work.workOf(answer(undefined, 'call_0'), 'me')).toBe('new')
    expect(work.workOf(answer(), 'someone-else')).toBe('new')
    expect(work.workOf({ pluginAbort: { sessionId: call } }, 'someone-else')).toBe('new')
    for (const junk of [null, 'x', 7, [], { pluginElicitResponses: 'x' }, { pluginElicitResponses: [null] }, { pluginAbort: null }, { pluginElicitResponses: [] }]) {
      expect(work.workOf(junk, 'me')).toBe('new')
    }
  })

  it('gives the same answer priority once: sent again it is stale, and charged as new work', () => {
    const { work, answer } = setUp()
    expect(work.workOf(answer(), 'me')).toBe('continue')
    expect(work.workOf(answer(), 'me')).toBe('new')
    // A corrected answer after a refusal is still work in progress, a few times at most.
    expect(work.workOf(answer({ flightId: 'SH-770' }), 'me')).toBe('continue')
    expect(work.workOf(answer({ flightId: 'SH-771' }), 'me')).toBe('continue')
    expect(work.workOf(answer({ flightId: 'SH-772' }), 'me')).toBe('new')
  })

  it('is new work when any answer in the request is not this client’s', () => {
    const { work, callIds, answer } = setUp()
    const mine = answer().pluginElicitResponses[0]!
    const theirs = answer(undefined, callIds.issue('call_1', 'them')).pluginElicitResponses[0]!
    expect(work.workOf({ messages: [], pluginElicitResponses: [mine, theirs] }, 'me')).toBe('new')
    // Nothing was recorded for the refused request: the genuine answer alone still counts.
    expect(work.workOf({ messages: [], pluginElicitResponses: [mine] }, 'me')).toBe('continue')
  })
})
