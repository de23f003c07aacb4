import { createQueue, run, spawn, until, withResolvers, type Operation, type Task } from 'effection'
import type { AnyMcpTool, ElicitAnswer, SampleResult } from '../../tools/types'
import { readElicitId } from '../../protocol/elicit-id'
import type { AnswerCheck, PendingQuestion } from '../pending-question'
import { ToolJournal, type JournalEntry } from '../journal'
import { createJournalingClient, type ToolEvent } from '../journaling-client'
import { runTool } from '../run-tool'
import type { ToolSampleRequest } from '../tool-client'

/** What the test must act on: a question waiting for its answer, a model call waiting for its result. */
export type Pending =
  | { type: 'ask'; request: PendingQuestion; answer(answer: ElicitAnswer<unknown>, elicitId?: string): AnswerCheck }
  | { type: 'sample'; request: ToolSampleRequest; resolve(result: SampleResult): void; reject(error: Error): void }
export type PendingOf<T extends Pending['type']> = Extract<Pending, { type: T }>
type Ending = { result: unknown } | { error: unknown }

export interface StartOptions {
  tool: AnyMcpTool
  params: unknown
  callId?: string
  /** What an earlier run recorded; empty for a live run. */
  journal?: readonly JournalEntry[]
  /** The shared log: the seam's calls and whatever the tool writes, in order. */
  trail?: string[]
}

/**
 * Run a tool with `runTool` and a journaling client whose seam (ask, sample, record, emit) is
 * written here: each writes to `trail`; questions and model calls wait for the test.
 * `journal` is what a later run replays: every recorded result and every accepted answer.
 */
export function* startTool({ tool, params, callId = 'call-1', journal: earlier = [], trail = [] }: StartOptions) {
  const journal: JournalEntry[] = [...earlier]
  const emitted: ToolEvent[] = []
  const queue = createQueue<Pending, Ending>()
  const client = createJournalingClient({
    journal: new ToolJournal(tool.name, earlier),
    *ask(request) {
      const seq = request.id.seq
      trail.push(`ask ${request.key} ${seq}`)
      const answered = withResolvers<ElicitAnswer<unknown>>()
      let settled = false
      queue.add({
        type: 'ask',
        request,
        answer(answer, elicitId = request.elicitId) {
          const checked = request.check(readElicitId(elicitId), answer)
          if (checked.ok && !settled) {
            settled = true
            // As the session store does: the answer as it came, made durable before the tool resumes.
            journal.push({ seq, kind: 'elicit', key: request.key, answer })
            trail.push(`answered ${seq}`)
            answered.resolve(checked.answer)
          }
          return checked
        },
      })
      try {
        return yield* answered.operation
      } finally {
        if (!settled) trail.push(`ask halted ${seq}`)
      }
    },
    *sample(request) {
      trail.push(`sample ${request.seq}`)
      const result = withResolvers<SampleResult>()
      queue.add({ type: 'sample', request, resolve: result.resolve, reject: result.reject })
      return yield* result.operation
    },
    *record(entry) {
      trail.push(`record ${entry.kind} ${entry.seq}`)
      // A durable write takes time: the tool must not go on before it is done.
      yield* until(Promise.resolve())
      journal.push(entry)
      trail.push(`recorded ${entry.seq}`)
    },
    emit(event) {
      trail.push(`emit ${event.type} ${event.seq}`)
      emitted.push(event)
    },
  })
  const task: Task<unknown> = yield* spawn(function* () {
    try {
      const result = yield* runTool({ tool, params, client, callId })
      queue.close({ result })
      return result
    } catch (error) {
      queue.close({ error })
      throw error
    }
  })

  /** The next question or model call, which must be of this type. */
  function* next<T extends Pending['type']>(type: T): Operation<PendingOf<T>> {
    const item = yield* queue.next()
    if (item.done) throw new Error(`Expected ${type}, but the tool ended: ${String(JSON.stringify(item.value))}`)
    if (item.value.type !== type) throw new Error(`Expected ${type}, got ${item.value.type}`)
    return item.value as PendingOf<T>
  }

  return { task, next, trail, journal, emitted }
}

/** Run `tool` over a journal without answering anything: a replay that must need nothing live. */
export function replayOnly(tool: AnyMcpTool, params: unknown, journal: readonly JournalEntry[], callId = 'call-1') {
  return run(function* () {
    const replay = yield* startTool({ tool, params, callId, journal, trail: [] })
    const result = yield* replay.task
    return { result, trail: replay.trail, journal: replay.journal, emitted: replay.emitted }
  })
}
