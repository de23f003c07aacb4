import type { Operation } from 'effection'
import type { PendingQuestion } from '../runtime/pending-question'
import type { LiveSession, PluginSessionManager } from '../sessions'
import type { ChatEvent } from '../protocol/events'

export type DriveOutcome =
  | { kind: 'waiting'; request: PendingQuestion }
  | { kind: 'completed'; content: string }
  | { kind: 'failed'; message: string }
  | { kind: 'aborted'; reason: string }

/**
 * Run a session's events through this request until the tool waits for the user or ends:
 * logs and progress go to the client. (Sampling runs inside the tool, through its client.)
 */
export function* driveSession({
  session,
  sessions,
  emit,
}: {
  session: LiveSession
  sessions: PluginSessionManager
  emit(event: ChatEvent): void
}): Operation<DriveOutcome> {
  const ids = { sessionId: session.id, callId: session.id }
  while (true) {
    const event = yield* session.nextEvent()
    switch (event.type) {
      case 'log':
        emit({ type: 'plugin_log', ...ids, level: event.level, message: event.message })
        break
      case 'notify':
        emit({ type: 'plugin_progress', ...ids, message: event.message, progress: clampProgress(event.progress) })
        break
      case 'elicit':
        sessions.touch(session)
        return { kind: 'waiting', request: event.request }
      case 'completed':
        return { kind: 'completed', content: event.content }
      case 'failed':
        return { kind: 'failed', message: event.error.message }
      case 'aborted':
        return { kind: 'aborted', reason: event.reason }
    }
  }
}

function clampProgress(progress: number | undefined): number | undefined {
  if (progress === undefined || !Number.isFinite(progress)) return undefined
  return Math.min(1, Math.max(0, progress))
}
