import type { ChatEvent } from './events'

/**
 * What the chat says of a tool call that waited for an answer and no longer does, though no
 * turn of the chat has said so yet (an operator ended it, its idle time-out did, its session is
 * gone): the event the chat's next turn would stream for it — `plugin_session_error` for a
 * session stopped or lost, `tool_result` or `tool_error` for one that ended by itself. The chats
 * API adds these to a chat it reads (`endedCalls`) and streams them to a page that shows the
 * question (`GET /api/chats/:id/waiting`); the browser's reducer reads them as it reads a turn's.
 */
export type EndedCallEvent = Extract<ChatEvent, { type: 'plugin_session_error' | 'tool_result' | 'tool_error' }>

/**
 * What `GET /api/chats/:id/waiting` tells a page of a question it shows waiting that was
 * answered without it (on another page or device of the person): `elicitId` is the question the
 * page named. The chat holds what came of it (the answering turn keeps every batch it streams):
 * the page reads the chat again.
 */
export interface AnsweredCallEvent {
  type: 'call_answered'
  callId: string
  elicitId: string
}

/** One line of `GET /api/chats/:id/waiting`: a call the page shows waiting ended, or the question it shows was answered elsewhere. */
export type WaitingCallNews = EndedCallEvent | AnsweredCallEvent

/**
 * The line of `POST /api/chat` with `follow` that ends the turn, when the turn left questions
 * waiting: nothing after it is the turn's (or kept in the chat); the lines after it are
 * `WaitingCallNews` about the questions the turn asked, until the response ends.
 */
export interface TurnEndLine {
  type: 'turn_end'
}

/**
 * A call a page follows (`GET /api/chats/:id/waiting`), and the question it shows the call
 * waiting on when the page names it (`seq`: the question's, read from its elicit id).
 */
export interface WatchedCall {
  callId: string
  question?: { elicitId: string; seq: number }
}

/** The tool call an `EndedCallEvent` is about. */
export function endedCallId(event: EndedCallEvent): string {
  return event.type === 'plugin_session_error' ? event.callId : event.id
}
