import type { ChatEvent } from '../protocol/events'

/** A tool call that begins (`open`) or stops waiting for an answer. */
export interface WaitingChange {
  callId: string
  open: boolean
}

/**
 * How `events` change which tool calls of a chat wait for an answer: a `plugin_elicit_request`
 * opens its call, its result, error or lost session closes it (a rejected answer leaves it open:
 * the question is asked again).
 */
export function waitingChanges(events: readonly ChatEvent[]): WaitingChange[] {
  const changes: WaitingChange[] = []
  for (const event of events) {
    if (event.type === 'plugin_elicit_request') changes.push({ callId: event.callId, open: true })
    else if (event.type === 'tool_result' || event.type === 'tool_error') changes.push({ callId: event.id, open: false })
    else if (event.type === 'plugin_session_error') changes.push({ callId: event.callId, open: false })
  }
  return changes
}

/**
 * The tool calls of a chat that wait for an answer after `events`, given those that waited
 * before. Kept with the chat's index entry and updated with every append, so that the list says
 * which chats wait without reading any chat's events.
 *
 * A question that expired (the session's idle time-out) or an operator ended still counts until a
 * turn touches it: the chat cannot know without asking the sessions; answering it says so, and so
 * does a new message that moves on from it (the engine streams how it ended first).
 */
export function waitingCalls(before: readonly string[], events: readonly ChatEvent[]): string[] {
  const open = new Set(before)
  for (const change of waitingChanges(events)) {
    if (change.open) open.add(change.callId)
    else open.delete(change.callId)
  }
  return [...open]
}
