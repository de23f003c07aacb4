import type { SessionErrorCode, ValidationIssue } from '../protocol/events'
import type { PendingQuestion } from '../runtime/pending-question'
import type { NamedElicitId } from '../protocol/elicit-id'
import type { ElicitAnswer } from '../tools/types'
import type { LiveSession } from './live-session'
import type { JournalEntry, SessionEnding, SpanRef } from './session-record'
import type { StoredSession } from './session-store'

/** An answer a client sends to the question its tool call waits on. */
export interface SessionAnswer {
  callId: string
  /** The question it answers, read where the answer arrived (`readElicitId`): an answer to another one is refused. */
  elicitId: NamedElicitId
  result: ElicitAnswer<unknown>
}

/** What became of one answer the manager did not refuse (`PluginSessionManager.answer`). */
export type AnswerOutcome =
  /** Recorded: `session` is the tool going on with it, for the caller to drive; `from`: the tool in memory, or a replay of its journal. */
  | { kind: 'accepted'; callId: string; session: LiveSession; from: 'memory' | 'replay' }
  /** It does not fit the question: nothing is recorded, and the session still waits on `question`. */
  | { kind: 'rejected'; callId: string; question: PendingQuestion; message: string; issues: ValidationIssue[] }
  /** The session had ended by itself before the answer came: its result is the tool call's. */
  | { kind: 'ended'; callId: string; ending: Exclude<SessionEnding, { kind: 'aborted' }> }
  /** There is no session to answer: gone, stopped or expired (`expired`: its idle time-out ended it), or one this server cannot run. */
  | { kind: 'lost'; callId: string; error: SessionErrorCode; message: string; expired?: true }

/**
 * A request's answers refused as a whole, with the code the client is told: it names a
 * question already answered (a second delivery) or not the one its call waits on, or a call
 * working in another request. Made before any answer of the request is recorded, except when a
 * compare-and-set finds that another delivery recorded the same answer a moment before.
 */
export interface AnswerRefusal {
  kind: 'refused'
  code: 'elicit_already_answered' | 'elicit_mismatch' | 'session_not_waiting'
  message: string
}

/** What `PluginSessionManager.answer` did with a request's answers: one outcome each, in order, or a refusal. */
export type AnswersOutcome = AnswerRefusal | { kind: 'answered'; outcomes: AnswerOutcome[] }

/** What `PluginSessionManager.takeOver` found: the tool replayed here, or why it cannot be. */
export type TakeOverOutcome = { kind: 'taken'; session: LiveSession } | { kind: 'lost'; error: SessionErrorCode; message: string }

export function refusal(code: AnswerRefusal['code'], message: string): AnswerRefusal {
  return { kind: 'refused', code, message }
}

/**
 * A tool call whose session has nothing more to run, as its caller reports it: lost (with the
 * error code the client hears) or ended by itself (with its result).
 */
export function settledOutcome(
  callId: string,
  loaded: { kind: 'missing' } | { kind: 'broken'; message: string } | { kind: 'ended'; ending: SessionEnding; stored: StoredSession; expired?: true },
): Extract<AnswerOutcome, { kind: 'ended' | 'lost' }> {
  switch (loaded.kind) {
    case 'missing':
      return { kind: 'lost', callId, error: 'SESSION_NOT_FOUND', message: `No session for tool call ${callId}: it ended, or expired.` }
    case 'broken':
      return { kind: 'lost', callId, error: 'INTERNAL_ERROR', message: loaded.message }
    case 'ended':
      return loaded.ending.kind === 'aborted'
        ? { kind: 'lost', callId, error: 'SESSION_ABORTED', message: loaded.ending.reason, ...(loaded.expired ? { expired: true as const } : {}) }
        : { kind: 'ended', callId, ending: loaded.ending }
  }
}

/** Whether the journal holds an answer to the question `elicitId` names. */
export function answeredIn(journal: readonly JournalEntry[], { id }: NamedElicitId): boolean {
  return id !== undefined && journal.some((entry) => entry.kind === 'elicit' && entry.seq === id.seq)
}

/** How an answered tool call goes on, for its trace: the span it paused in, and from where it resumes. */
export interface ToolResume {
  callId: string
  toolName: string
  /** The span that paused (the record's), when the call was started with traces on. */
  paused?: SpanRef
  /** From memory (the tool waited in this process) or from the record (its journal replayed). */
  from: 'memory' | 'record'
  /** The journal entries the tool replays to get back to where it was (0 from memory). */
  replayed: number
}
