import type { ChatEvent } from '../protocol/events'

/**
 * The tool calls of a chat that wait for an answer after `events`, given those that waited
 * before: a `plugin_elicit_request` opens its call, its result, error or lost session closes it
 * (a rejected answer leaves it open: the question is asked again). Kept with the chat's index
 * entry and updated with every append, so that the list says which chats wait without reading
 * any chat's events.
 *
 * A question that expired (the session's idle time-out) still counts until a turn touches it:
 * the chat cannot know without asking the sessions; opening it and answering says so.
 */
export function waitingCalls(before: readonly string[], events: readonly ChatEvent[]): string[] {
  const open = new Set(before)
  for (const event of events) {
    if (event.type === 'plugin_elicit_request') open.add(event.callId)
    else if (event.type === 'tool_result' || event.type === 'tool_error') open.delete(event.id)
    else if (event.type === 'plugin_session_error') open.delete(event.callId)
  }
  return [...open]
}
