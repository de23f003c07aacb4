import { replayable } from './live-only'
import type { SessionRecord } from './session-record'

/**
 * A tool call waiting for a person's answer, as the store has it (every instance's), for the
 * operator: whose (`clientId`, never shown as it is), which question, since when, and where.
 */
export interface WaitingCall {
  clientId: string
  callId: string
  toolName: string
  /** The question's key in its tool's `elicits` (`pickFlight`). */
  key: string
  /** When it began to wait (epoch ms). */
  since: number
  /** When its idle time-out ends it (epoch ms). */
  expiresAt: number
  /** The instance that wrote it (`SessionRecord.instance`), when known. */
  instance?: string
  /**
   * Whether its tool is held in memory (an answer resumes it without a replay): known for this
   * instance's own; for another's, what that instance does with it (its question younger than the
   * hot time, or a live-only tool that cannot be replayed).
   */
  hot: boolean
}

/**
 * The waiting calls among `records` (those read with status `waiting`) at `at`: an expired one
 * is left out, as the limits and the metrics leave it out.
 */
export function waitingCalls(
  records: readonly SessionRecord[],
  {
    at,
    instance,
    hotMs,
    liveOnly,
    heldHere,
  }: {
    at: number
    /** This instance's name: a record it wrote is hot exactly when `heldHere` says so. */
    instance?: string
    hotMs: number
    /** For a live-only tool, the step that starts its outside work (see `replayable`). */
    liveOnly(toolName: string, clientId: string): string | undefined
    heldHere(record: SessionRecord): boolean
  },
): WaitingCall[] {
  return records.flatMap((record) => {
    if (record.status !== 'waiting' || !record.pending || record.expiresAt <= at) return []
    const here = instance !== undefined && record.instance === instance
    const startedBy = liveOnly(record.toolName, record.clientId)
    const pinned = startedBy !== undefined && !replayable(record, startedBy)
    const hot = here ? heldHere(record) : pinned || record.updatedAt + hotMs > at
    const { clientId, id: callId, toolName, updatedAt: since, expiresAt } = record
    return [{ clientId, callId, toolName, key: record.pending.key, since, expiresAt, instance: record.instance, hot }]
  })
}
