import { describe, expect, it } from 'vitest'
import type { ChatEvent } from '@/lib/protocol/events'
import { FIRST_TURN, SECOND_TURN } from '../testing/chat-events'
import { decodeEntry, encodeEvents } from './chat-entries'

describe('a batch of events as the stores keep it', () => {
  it('is the JSON the stream wrote, kept as it is, with the conversation state apart', () => {
    const events = [...FIRST_TURN, ...SECOND_TURN]
    const written = events.map((event) => JSON.stringify(event))
    const kept = encodeEvents(events, written)

    // The same text as the events encoded here, and read back as the same events, the state's messages apart.
    expect(kept).toEqual(encodeEvents(events))
    const state = events.findLast((event) => event.type === 'conversation_state')!
    expect(JSON.parse(kept.state!.text)).toEqual(state.messages)
    expect(decodeEntry(1, 'events', kept.text)).toEqual({
      turn: 1,
      events: events.map((event) => (event.type === 'conversation_state' ? { type: 'conversation_state', messages: [] } : event)),
    })
  })

  it('takes each event’s text as given, not encoding the event again', () => {
    const events: ChatEvent[] = [
      { type: 'text', content: 'Hello' },
      { type: 'conversation_state', messages: [{ role: 'user', content: 'Hi' }] },
    ]
    // The stream's own text (here spaced, which JSON.stringify would not be) is what is kept.
    const written = events.map((event) => JSON.stringify(event, null, 1))
    const kept = encodeEvents(events, written)
    expect(kept.text).toBe(`[${written[0]},{"type":"conversation_state","messages":[]}]`)
    // A state whose text does not begin as JSON.stringify would write it is encoded from its messages.
    expect(kept.state!.text).toBe('[{"role":"user","content":"Hi"}]')
  })

  it('encodes a conversation state’s messages from the event when it has more than its messages', () => {
    const event = { type: 'conversation_state', messages: [{ role: 'user', content: 'Hi' }], note: 'x' } as unknown as ChatEvent
    const kept = encodeEvents([event], [JSON.stringify(event)])
    expect(kept.state!.text).toBe('[{"role":"user","content":"Hi"}]')
  })
})
