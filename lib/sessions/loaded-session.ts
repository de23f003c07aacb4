import type { Operation } from 'effection'
import type { AnyMcpTool } from '../tools/types'
import { PendingQuestion } from '../runtime/pending-question'
import { leaseLapsed } from './lease'
import { lostLiveOnly, replayable } from './live-only'
import { SessionRecordError, type SessionEnding } from './session-record'
import type { SessionStore, StoredSession } from './session-store'

/** A session as the store has it, for the client asking, with its idle time-out applied. */
export type LoadedSession =
  | { kind: 'missing' }
  /** The record cannot be used: corrupted, from another version, or its tool is not served here. */
  | { kind: 'broken'; message: string }
  /** `expired`: a waiting one its idle time-out ended (its record may not say so yet). */
  | { kind: 'ended'; ending: SessionEnding; stored: StoredSession; expired?: true }
  | { kind: 'waiting'; stored: StoredSession; request: PendingQuestion }
  /** Working in some request; `abandoned` when its process stopped writing (lease over). */
  | { kind: 'running'; stored: StoredSession; abandoned: boolean }

export interface LoadSessionOptions {
  store: SessionStore
  tools(toolName: string, clientId: string): AnyMcpTool | undefined
  now(): number
  idleTimeoutMs: number
  /** Whether this process holds the session's tool in memory (a live-only tool is lost only once no process does). */
  heldHere(clientId: string, id: string): boolean
}

/**
 * How the session `id` stands, read from its record, for the client that started it only: its
 * question is read back from the record (`PendingQuestion.fromRecord`) against the tool's
 * declaration, and a waiting session past its idle time-out has ended though its record may not
 * say so yet.
 */
export function* loadSession({ store, tools, now, idleTimeoutMs, heldHere }: LoadSessionOptions, clientId: string, id: string): Operation<LoadedSession> {
  let stored: StoredSession | undefined
  try {
    stored = yield* store.get(clientId, id)
  } catch (error) {
    if (error instanceof SessionRecordError) return { kind: 'broken', message: `Session ${id} cannot be continued: ${error.message}` }
    throw error
  }
  if (!stored || stored.record.clientId !== clientId) return { kind: 'missing' }
  const { record } = stored
  if (record.ending) return { kind: 'ended', ending: record.ending, stored }
  const tool = tools(record.toolName, record.clientId)
  if (!tool) return { kind: 'broken', message: `Session ${id} needs the tool "${record.toolName}", which this server does not offer.` }
  if (record.status === 'waiting' && record.expiresAt <= now()) {
    return { kind: 'ended', stored, ending: { kind: 'aborted', reason: expiredReason(record.toolName, idleTimeoutMs) }, expired: true }
  }
  if (tool.liveOnly && !heldHere(clientId, id) && !replayable(record, tool.liveOnly.startedBy)) {
    // Working in another process, it is running as any session there is; once that process is gone, it is lost.
    if (record.status === 'running' && !leaseLapsed(record.expiresAt, now())) return { kind: 'running', stored, abandoned: false }
    return { kind: 'broken', message: lostLiveOnly(record.toolName) }
  }
  // A running session's lease is its record's `expiresAt`, moved by each write of its process (lease.ts).
  if (record.status === 'running') return { kind: 'running', stored, abandoned: leaseLapsed(record.expiresAt, now()) }
  const pending = record.pending
  const spec = pending && Object.hasOwn(tool.elicits, pending.key) ? tool.elicits[pending.key] : undefined
  const request = pending && spec ? PendingQuestion.fromRecord(pending, { toolName: record.toolName, callId: record.id }, spec) : undefined
  if (!request) return { kind: 'broken', message: `Session ${id} waits for a question this server cannot ask.` }
  return { kind: 'waiting', stored, request }
}

/** The ending of a session its idle time-out ended. */
export function expiredReason(toolName: string, idleTimeoutMs: number): string {
  return `The ${toolName} session expired after ${Math.round(idleTimeoutMs / 1000)} s without an answer.`
}
