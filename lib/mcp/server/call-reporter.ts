import type { ServerContext } from '@modelcontextprotocol/server'
import type { ToolEvent } from '../../runtime/journaling-client'
import { createProgressSequence, PROGRESS_TOTAL } from './progress-sequence'

/** What a round has reported of its call, for the next round to carry on from (kept in the round's state). */
export interface CallReports {
  /** The last ctx call whose log or progress was sent: a round replaying the tool does not send those again. */
  reported: number
  /** The last progress value sent (0..`PROGRESS_TOTAL`), if any: later rounds send only above it. */
  progress?: number
}

export interface CallReporter {
  /** A log or progress report of the tool, sent unless an earlier round sent it. */
  emit(event: ToolEvent): void
  /** The tool ended, with its result or its failure: progress reaches its total, if it has not. Call before the result is sent. */
  end(message: string): void
  /** Every report so far has been handed to the transport (or given up on). */
  sent(): Promise<void>
  /** What this round reported, in all, for the next round. */
  reports(): CallReports
}

/** The parts of a request's context the reporter uses. */
export type ReportingContext = { mcpReq: Pick<ServerContext['mcpReq'], 'log' | 'notify' | '_meta'> }

/**
 * `ctx.log` and `ctx.notify` as MCP notifications, sent in order on the call's stream. The
 * journaling client reports synchronously; each send is chained to the one before, and the
 * round awaits the chain before it answers, so every report precedes the result.
 *
 * Invariants, over the whole call (every round of a 2026-07-28 call, or every time the SDK's
 * shim runs the handler again within one 2025 request): a log or progress report is sent at
 * most once; the progress values strictly increase and end at the total when the tool ends
 * (see `ProgressSequence`). Progress is sent only when the request asked for it (a
 * `progressToken`); what was not sent does not move the sequence.
 */
export function createCallReporter(ctx: ReportingContext, from: CallReports): CallReporter {
  let reported = from.reported
  const progress = createProgressSequence(from.progress)
  const progressToken = ctx.mcpReq._meta?.progressToken
  let chain: Promise<void> = Promise.resolve()
  const send = (work: () => Promise<void>) => {
    chain = chain.then(work).catch(() => {
      // A client that went away misses its reports; the call's own answer says what happened. (The round awaits the chain: `sent`.)
    })
  }
  const notify = (value: number | undefined, message: string) => {
    if (progressToken === undefined || value === undefined) return
    send(() => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: value, total: PROGRESS_TOTAL, message } }))
  }
  return {
    emit(event) {
      // A round replays the tool from its last answer; what it reported before that was sent already.
      if (event.seq <= reported) return
      reported = event.seq
      if (event.type === 'log') send(() => ctx.mcpReq.log(event.level, event.message))
      else if (progressToken !== undefined) notify(progress.next(event.progress), event.message)
    },
    end(message) {
      if (progressToken !== undefined) notify(progress.end(), message)
    },
    sent: () => chain,
    reports: () => {
      const last = progress.last()
      return last === undefined ? { reported } : { reported, progress: last }
    },
  }
}
