import { describe, expect, it } from 'vitest'
import type { ToolEvent } from '../../runtime/journaling-client'
import { createCallReporter, type CallReports, type ReportingContext } from './call-reporter'

/** A request's context that records what the reporter sends, with or without a progressToken. */
function request(progressToken?: string | number) {
  const sent: unknown[] = []
  const ctx: ReportingContext = {
    mcpReq: {
      _meta: progressToken === undefined ? undefined : { progressToken },
      log: async (level, data) => void sent.push({ log: level, data }),
      notify: async (notification) => void sent.push(notification.params),
    },
  }
  return { ctx, sent }
}

const notify = (seq: number, message: string, progress?: number): ToolEvent => ({ type: 'notify', seq, message, progress })

/** One round: the events the tool emits (a replay emits from the start of the journal), then how it ends. */
async function round(from: CallReports, events: ToolEvent[], end?: string, progressToken: string | number = 't') {
  const { ctx, sent } = request(progressToken)
  const reporter = createCallReporter(ctx, from)
  for (const event of events) reporter.emit(event)
  if (end) reporter.end(end)
  await reporter.sent()
  return { sent, reports: reporter.reports() }
}

describe('createCallReporter', () => {
  it('sends logs and progress in order, in percent of a total of 100', async () => {
    const { sent, reports } = await round({ reported: 0 }, [
      notify(1, 'Searching', 0.1),
      { type: 'log', seq: 2, level: 'info', message: 'Found 3' },
      notify(3, 'Waiting', 0.25),
    ])
    expect(sent).toEqual([
      { progressToken: 't', progress: 10, total: 100, message: 'Searching' },
      { log: 'info', data: 'Found 3' },
      { progressToken: 't', progress: 25, total: 100, message: 'Waiting' },
    ])
    expect(reports).toEqual({ reported: 3, progress: 25 })
  })

  it('carries on across rounds: a replay sends nothing twice, and a question asked again moves past its first report', async () => {
    const first = await round({ reported: 0 }, [notify(1, 'Searching', 0.1), notify(2, 'Waiting', 0.25)])
    // The answer was refused: the tool runs again from the start, and asks again (seq 4, after the refused answer's 3).
    const second = await round(first.reports, [notify(1, 'Searching', 0.1), notify(2, 'Waiting', 0.25), notify(4, 'Waiting', 0.25)])
    expect(second.sent).toEqual([{ progressToken: 't', progress: 25.01, total: 100, message: 'Waiting' }])
    const third = await round(second.reports, [notify(1, 'Searching', 0.1), notify(2, 'Waiting', 0.25), notify(4, 'Waiting', 0.25), notify(6, 'Booked', 1)], 'Done')
    expect(third.sent).toEqual([{ progressToken: 't', progress: 100, total: 100, message: 'Booked' }])
  })

  it('ends at the total, after the last report, when the tool ended short of it', async () => {
    const { sent } = await round({ reported: 2, progress: 60 }, [notify(3, 'Waiting', 0.6)], 'Done')
    expect(sent).toEqual([
      { progressToken: 't', progress: 60.01, total: 100, message: 'Waiting' },
      { progressToken: 't', progress: 100, total: 100, message: 'Done' },
    ])
    const failed = await round({ reported: 0 }, [], 'Failed')
    expect(failed.sent).toEqual([{ progressToken: 't', progress: 100, total: 100, message: 'Failed' }])
  })

  it('sends no progress to a request without a progressToken, and does not move the sequence for it', async () => {
    const { ctx, sent } = request()
    const reporter = createCallReporter(ctx, { reported: 0, progress: 25 })
    reporter.emit(notify(1, 'Waiting', 0.5))
    reporter.emit({ type: 'log', seq: 2, level: 'info', message: 'still logged' })
    reporter.end('Done')
    await reporter.sent()
    expect(sent).toEqual([{ log: 'info', data: 'still logged' }])
    expect(reporter.reports()).toEqual({ reported: 2, progress: 25 })
  })

  it('keeps its order when a send fails, and skips only what failed', async () => {
    const sent: unknown[] = []
    let calls = 0
    const ctx: ReportingContext = {
      mcpReq: {
        _meta: { progressToken: 7 },
        log: async () => {},
        notify: async (notification) => {
          if (calls++ === 0) throw new Error('gone')
          sent.push(notification.params)
        },
      },
    }
    const reporter = createCallReporter(ctx, { reported: 0 })
    reporter.emit(notify(1, 'Lost', 0.2))
    reporter.emit(notify(2, 'Kept', 0.4))
    reporter.end('Done')
    await reporter.sent()
    expect(sent).toEqual([
      { progressToken: 7, progress: 40, total: 100, message: 'Kept' },
      { progressToken: 7, progress: 100, total: 100, message: 'Done' },
    ])
  })
})
