import { settledOutcome, type LoadedSession } from '../sessions'
import type { EndedCallEvent } from '../protocol/ended-call'

/**
 * How a client's tool call stands in the sessions' store, for something outside a turn that
 * follows it (the chats API, for a call a chat leaves waiting): it waits for an answer until
 * `expiresAt` (its idle time-out), it is working in some request, or it has ended — with the
 * event the chat's next turn would stream for it (`prepareTurn` and `runTurn` report it so).
 * `answered`: the `seq` of each of its questions its record has an answer to, when it has any
 * (a page showing one of them waiting is behind).
 */
export type CallStanding = ({ kind: 'waiting'; expiresAt: number } | { kind: 'running' } | { kind: 'ended'; event: EndedCallEvent }) & { answered?: readonly number[] }

/** The standing of the call `callId` from its session as loaded (`PluginSessionManager.load`). */
export function callStandingOf(callId: string, loaded: LoadedSession): CallStanding {
  const journal = 'stored' in loaded ? loaded.stored.record.journal : []
  const answered = journal.flatMap((entry) => (entry.kind === 'elicit' ? [entry.seq] : []))
  const stands = standingOf(callId, loaded)
  return answered.length > 0 ? { ...stands, answered } : stands
}

function standingOf(callId: string, loaded: LoadedSession): CallStanding {
  switch (loaded.kind) {
    case 'waiting':
      return { kind: 'waiting', expiresAt: loaded.stored.record.expiresAt }
    case 'running':
      return { kind: 'running' }
    default: {
      const settled = settledOutcome(callId, loaded)
      if (settled.kind === 'lost') return { kind: 'ended', event: { type: 'plugin_session_error', sessionId: callId, callId, error: settled.error, message: settled.message } }
      const name = loaded.kind === 'ended' ? loaded.stored.record.toolName : ''
      const { ending } = settled
      return {
        kind: 'ended',
        event: ending.kind === 'completed' ? { type: 'tool_result', id: callId, name, content: ending.content } : { type: 'tool_error', id: callId, name, message: ending.message },
      }
    }
  }
}
