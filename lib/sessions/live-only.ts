import type { SessionRecord } from './session-record'

/**
 * Whether a live-only tool's session may be run again from this record (on another process,
 * after a restart, or after being dropped from memory). A live-only tool does its outside work
 * (a call to another server) only after the journaled step named `startedBy` (`ctx.step`) that
 * marks its start, and before that only asks questions and takes steps that reach nothing
 * outside (a look at its connection), which a replay answers from the journal without asking or
 * looking again. Every question is written with the whole journal so far, so a record that waits
 * for an answer and holds no `startedBy` step was written before the outside work began: running
 * it again redoes nothing. A running record is never replayed: its process may be doing the work
 * right now.
 */
export function replayable(record: SessionRecord, startedBy: string): boolean {
  return record.status === 'waiting' && !record.journal.some((entry) => entry.kind === 'step' && entry.name === startedBy)
}

/** What the client hears of a live-only tool's session that cannot be run again (see `replayable`). */
export function lostLiveOnly(toolName: string): string {
  return (
    `The external call ${toolName} was lost: it lived in a server process that has since stopped (or in another instance). ` +
    'It is not repeated, since calling the outside server again could redo what it did. Ask again to make a new call.'
  )
}
