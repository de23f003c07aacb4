import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server'

/**
 * The messages one 2025 session sent on its streams, kept so that a client whose stream broke
 * (or that the server asked to reconnect) resumes with `Last-Event-ID` and misses nothing. It
 * lives and dies with its session, and keeps at most `limit` messages.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>()
  private next = 0

  constructor(private readonly limit = 1000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${(this.next++).toString(36).padStart(8, '0')}`
    this.events.set(eventId, { streamId, message })
    if (this.events.size > this.limit) this.events.delete(this.events.keys().next().value!)
    return eventId
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId
    if (streamId === undefined) return ''
    let after = false
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) after = true
      else if (after && event.streamId === streamId) await send(eventId, event.message)
    }
    return streamId
  }
}
