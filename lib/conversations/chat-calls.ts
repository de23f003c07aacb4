import { endedCallId, type EndedCallEvent, type WatchedCall } from '../protocol/ended-call'
import type { ChatSummary } from './chat'

/**
 * What the sessions say of the tool calls a chat leaves waiting, for the chats API. A chat keeps
 * which calls its events leave unanswered (`waitingCalls`); only the sessions know whether each
 * still waits — an operator may have ended it, its idle time-out may have. `lib/server` wires the
 * chat server's sessions in (`chat-calls-instance.ts`); without it the chats show what they keep.
 */
export interface ChatCalls {
  /**
   * Of `owner`'s calls `callIds`, those that no longer wait, each as the event the chat's next
   * turn would stream for it; one read of the sessions' store per call.
   */
  ended(owner: string, callIds: readonly string[]): Promise<EndedCallEvent[]>
  /**
   * A stream of NDJSON lines (`WaitingCallNews`), one for each of `owner`'s `calls` that no
   * longer waits as the page shows it: a `call_answered` when the question named with it was
   * answered, else its `EndedCallEvent` when it ends (one that moved on before is told at once);
   * ending once none is left to follow; `signal` (the request's) ends it sooner. Refuses with a
   * `ConversationError` (429 `too_many_watches`) when the owner holds as many as it may.
   */
  watch(options: { owner: string; calls: readonly WatchedCall[]; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>>
}

/** Whether a chat waits for an answer: a call its events leave open that the sessions have not ended. */
export function stillWaiting(chat: Pick<ChatSummary, 'waitingCalls'>, ended: readonly EndedCallEvent[]): boolean {
  const gone = new Set(ended.map(endedCallId))
  return chat.waitingCalls.some((callId) => !gone.has(callId))
}
