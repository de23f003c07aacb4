import type { Operation } from 'effection'
import type { LogLevel } from '../protocol'
import type { ElicitAnswer, SampleResult } from '../tools/types'
import type { PendingQuestion } from './pending-question'
import { ElicitResponseError } from './errors'
import type { JournalEntry, ToolJournal } from './journal'
import type { ToolClient, ToolClientCapabilities, ToolLogEntry, ToolProgress, ToolSampleRequest, ToolStepRequest } from './tool-client'

/** What a journaled tool reports as it runs, besides its questions. */
export type ToolEvent =
  | { type: 'log'; seq: number; level: LogLevel; message: string }
  | { type: 'notify'; seq: number; message: string; progress?: number }

export interface JournalingClientOptions {
  /** What the tool received on earlier runs; replayed before anything is done live. */
  journal: ToolJournal
  /** `ctx.sample` done live: the chat's own model. */
  sample(request: ToolSampleRequest): Operation<SampleResult>
  /**
   * Keep a result for the record. It must be durable before anything the tool does with it can
   * be seen outside the process (its next question, a step's work, a model call, a log handed to
   * a request); the tool may see it at once.
   */
  record(entry: JournalEntry): Operation<void>
  /** Make the question durable, then wait for its answer (already checked by `request.validate`). */
  ask(request: PendingQuestion): Operation<ElicitAnswer<unknown>>
  /** Logs and progress that were not already sent by an earlier run. */
  emit(event: ToolEvent): void
  /**
   * Called before a step's work is done live (not replayed): the last moment to make sure no
   * other run of the same journal does it too. It may throw to stop the tool.
   */
  beforeStep?(): Operation<void>
}

const CAPABILITIES: ToolClientCapabilities = { elicitation: true, sampling: true }

/**
 * The client of a tool whose session is data: every sample and step result is recorded (`record`;
 * answers by whoever `ask` hands them over), and a tool run again from its journal gets the recorded results back, in order, without
 * asking the user, the model or a step again. Logs and progress already sent are not resent.
 */
export function createJournalingClient(options: JournalingClientOptions): ToolClient {
  return new JournalingClient(options)
}

// A class: a waiting session keeps one, and prototype methods cost nothing per session.
class JournalingClient implements ToolClient {
  readonly capabilities = CAPABILITIES

  constructor(private readonly options: JournalingClientOptions) {}

  *elicit(request: PendingQuestion): Operation<ElicitAnswer<unknown>> {
    const recorded = this.options.journal.replay(request.id.seq, 'elicit', request.key)
    if (!recorded) return yield* this.options.ask(request)
    // What the store gave back is checked like any answer: a journal is data from outside.
    const checked = request.validate(recorded.answer)
    if (!checked.ok) throw new ElicitResponseError(`The recorded ${checked.message}`, checked.issues)
    return checked.answer
  }

  *sample(request: ToolSampleRequest): Operation<SampleResult> {
    const recorded = this.options.journal.replay(request.seq, 'sample')
    if (recorded) return { text: recorded.text, usage: recorded.usage }
    const result = yield* this.options.sample(request)
    yield* this.options.record({ seq: request.seq, kind: 'sample', text: result.text, usage: result.usage })
    return result
  }

  *step<T>(request: ToolStepRequest, run: () => Operation<T>): Operation<T> {
    const recorded = this.options.journal.replay(request.seq, 'step', request.name)
    if (recorded) return recorded.value as T
    if (this.options.beforeStep) yield* this.options.beforeStep()
    const value = yield* run()
    yield* this.options.record({ seq: request.seq, kind: 'step', name: request.name, value })
    return value
  }

  *log({ seq, level, message }: ToolLogEntry): Operation<void> {
    if (!this.options.journal.replayed(seq, 'log')) this.options.emit({ type: 'log', seq, level, message })
  }

  *notify({ seq, message, progress }: ToolProgress): Operation<void> {
    if (!this.options.journal.replayed(seq, 'notify')) this.options.emit({ type: 'notify', seq, message, progress })
  }
}
