import { action, withResolvers, type Operation, type Scope, type Task } from 'effection'
import type { PendingQuestion } from '../runtime/pending-question'
import { createJournalingClient, type ToolEvent } from '../runtime/journaling-client'
import { ToolJournal, type JournalEntry } from '../runtime/journal'
import { runTool } from '../runtime/run-tool'
import { TraceParent } from '../runtime/trace-parent'
import type { ToolSampleRequest } from '../runtime/tool-client'
import type { BranchLimits } from '../tools/limits'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { AnyMcpTool, ElicitAnswer, SampleResult } from '../tools/types'
import { SessionConflictError } from './errors'
import { eventLoopTick } from './event-loop-tick'
import { traceContextOf, type SessionRecord } from './session-record'
import type { SessionStore, StoredSession } from './session-store'
import { SessionWriter, type SessionTiming } from './session-writer'

export type { SessionTiming }

/** Everything a live session reports to whoever drives it, ending with one terminal event or a question. */
export type LiveSessionEvent =
  | ToolEvent
  | { type: 'elicit'; request: PendingQuestion }
  | { type: 'completed'; content: string }
  | { type: 'failed'; error: Error }
  | { type: 'aborted'; reason: string }

/**
 * How tool calls run on this server, handed down by whoever makes the sessions (the chat
 * server): the limits, the system prompt, and `sample`, the port through which a tool reaches
 * the chat's model (`ctx.sample`) — sessions never reach up for the model themselves.
 */
export interface SessionRuntime {
  /** A tool's `ctx.sample`; `clientId` is whose tool asks (the model budgets count it to them). */
  sample(request: ToolSampleRequest, clientId: string): Operation<SampleResult>
  limits?: BranchLimits
  parentSystemPrompt?: string
}

export interface StartLiveSessionOptions {
  /** The long-lived scope the tool runs in, so it outlives the request that started it. */
  scope: Scope
  store: SessionStore
  tool: AnyMcpTool
  /** The record to continue from (a new one, or one whose journal is replayed) and its version. */
  stored: StoredSession
  runtime: SessionRuntime
  /** The conversation the tool was called from (`ctx.parentMessages`). */
  parentMessages: readonly ExtendedMessage[]
  timing: SessionTiming
  /** For a new session (version 0): the limits on open sessions its creation must stay within. */
  limits?: { perClient?: number; all?: number }
  /** Called once when the tool's task has ended, however it ended. */
  onEnd(session: LiveSession): void
  /**
   * Called when the tool has received a result that is not written yet: the caller must `flush`
   * the session by the next turn of the event loop, whether or not a request is driving it.
   */
  onUnwritten?(session: LiveSession): void
}

/**
 * A plugin session's tool, running or suspended in this process: a cache of its record, which
 * its `SessionWriter` keeps. Every result it receives is written to the store before anything
 * the tool does with it can be seen outside this process, every question before it is asked,
 * each write a compare-and-set on the version this process last wrote, so a process that lost
 * the session to another can never record anything more.
 *
 * A result (an answer given to a tool waiting here, a sample's text, a step's value) is written
 * with the next thing the tool does that could be seen outside: its next question, its result,
 * a step's work or a model call, and before any of its logs or progress reach a request
 * (`nextEvent`) — at the latest by the next turn of the event loop (`onUnwritten` asks the
 * owner to `flush`, for a tool no request drives). So a tool that does a step
 * and then returns writes once, not twice, and nothing it did is seen before it is durable.
 */
export class LiveSession {
  readonly id: string
  readonly clientId: string
  readonly toolName: string
  private readonly writer: SessionWriter
  private readonly timing: SessionTiming
  private readonly onUnwritten: StartLiveSessionOptions['onUnwritten']
  private ended = false
  /** Set when the cache lets go of the tool: its halt is not an abort, and nothing is written. */
  private dehydrating = false
  private stopReason = 'The tool call was stopped.'
  // Events not yet taken by a driver, and the driver waiting for one: not an Effection queue,
  // whose closures would cost a waiting session more than this array.
  private readonly events: LiveSessionEvent[] = []
  private waiter: (() => void) | undefined = undefined
  /** How the tool's task reports its end when it was stopped because its results could not be written. */
  private stopEvent: Extract<LiveSessionEvent, { type: 'failed' | 'aborted' }> | undefined = undefined
  private answer: ((answer: ElicitAnswer<unknown>) => void) | undefined = undefined
  private pending: PendingQuestion | undefined = undefined
  private readonly task: Task<void>

  constructor({ scope, store, tool, stored, runtime, parentMessages, timing, limits, onEnd, onUnwritten }: StartLiveSessionOptions) {
    const { record } = stored
    this.id = record.id
    this.clientId = record.clientId
    this.toolName = record.toolName
    this.writer = new SessionWriter(store, stored, timing, limits)
    this.timing = timing
    this.onUnwritten = onUnwritten
    const session = this
    const client = createJournalingClient({
      journal: new ToolJournal(tool.name, record.journal),
      // A model call and a step's work are seen outside: what the tool received is written first.
      *sample(request) {
        yield* session.writer.writeUnwritten()
        return yield* runtime.sample(request, session.clientId)
      },
      beforeStep: () => this.writer.writeUnwritten(),
      record: (entry) => this.append(entry),
      ask: (request) => this.ask(request),
      emit: (event) => this.deliver(event),
    })
    const run = runTool({
      tool,
      params: record.params,
      client,
      callId: record.id,
      limits: runtime.limits,
      parentMessages,
      parentSystemPrompt: runtime.parentSystemPrompt,
    })
    this.task = scope.run(function* () {
      let settled = false
      try {
        // With traces on, what the tool does (a store write, an external MCP call) is under its call's latest span.
        const result = yield* (record.span ? TraceParent.with(() => session.traceContext(), () => run) : run)
        settled = true
        const content = contentOf(result)
        if (content === undefined) {
          yield* session.end({ type: 'failed', error: new Error('The tool returned a result that is not JSON-serialisable.') })
        } else yield* session.end({ type: 'completed', content })
      } catch (error) {
        settled = true
        const failure = error instanceof Error ? error : new Error(String(error))
        if (failure instanceof SessionConflictError) session.settle({ type: 'aborted', reason: failure.message })
        else yield* session.end({ type: 'failed', error: failure })
      } finally {
        if (!settled && !session.dehydrating) session.settle(session.stopEvent ?? { type: 'aborted', reason: session.stopReason })
        session.ended = true
        onEnd(session)
      }
    })
  }

  /** The version of the record this process wrote last (0: not in the store yet); the cache is valid while the store has it. */
  get version(): number {
    return this.writer.version
  }

  /** The trace context of the call's latest piece (the span its record keeps), when traces are on. */
  private traceContext() {
    const { span } = this.writer.record
    return span && traceContextOf(span)
  }

  /** Whether the tool waits for an answer here and now. */
  get waiting(): boolean {
    return this.pending !== undefined
  }

  /** What the tool waits on here and now, and the record (and version) this process wrote when it began to. */
  get waitingOn(): { stored: StoredSession; request: PendingQuestion } | undefined {
    return this.pending && { stored: this.writer.stored, request: this.pending }
  }

  /**
   * The next event; the driver calls this until a terminal event or an `elicit`. What the tool
   * received and the store does not have yet is written first (`flush`): no log or progress
   * reaches a request before the results it may tell of are durable.
   */
  *nextEvent(): Operation<LiveSessionEvent> {
    while (true) {
      if (this.writer.unwritten) {
        yield* eventLoopTick()
        yield* this.flush()
      }
      const ready = this.events.shift()
      if (ready) return ready
      yield* action<void>((resolve) => {
        this.waiter = resolve
        return () => {
          if (this.waiter === resolve) this.waiter = undefined
        }
      })
    }
  }

  /**
   * Hand the waiting tool its answer, which the store already holds (`taken` was written by
   * the manager's compare-and-set).
   */
  resume(taken: StoredSession, answer: ElicitAnswer<unknown>): void {
    const resolve = this.answer
    if (!resolve) throw new Error(`Session ${this.id} is not waiting for an answer here.`)
    this.writer.adopt(taken)
    this.answer = undefined
    this.pending = undefined
    resolve(answer)
  }

  /**
   * Hand the waiting tool its answer before the store has it: `next` is the record with the
   * answer in its journal, to be written with the first thing the tool does that could be seen
   * outside this process — its next question, its result, a step's work, a model call — in one
   * compare-and-set on the version it was waiting at. Until then the tool's logs and progress
   * wait in its queue (`nextEvent` writes first); a tool that does none of these at once has the
   * answer written alone (`recorded`). So a resume whose tool
   * asks its next question at once writes once, not twice, and still nothing is done twice: a
   * concurrent delivery that takes the session first makes that write fail, and what the tool did
   * in memory is dropped with it.
   */
  resumeUnwritten(next: SessionRecord, answer: ElicitAnswer<unknown>): void {
    const resolve = this.answer
    if (!resolve) throw new Error(`Session ${this.id} is not waiting for an answer here.`)
    this.writer.stage(next)
    this.answer = undefined
    this.pending = undefined
    resolve(answer)
  }

  /**
   * After `resumeUnwritten`, or for a session started with version 0: let the tool run on to what
   * it does next in this turn of the event loop, then make sure the answer (or the new session)
   * is written — alone, if the tool wrote nothing by then. True when the store holds it; false
   * when another process took or stopped the session first (or, new, its call id was taken).
   */
  *recorded(): Operation<boolean> {
    yield* eventLoopTick()
    try {
      yield* this.writer.writeUnwritten()
      return true
    } catch (error) {
      if (error instanceof SessionConflictError) return false
      throw error
    }
  }

  /** The record the store holds for this session as this process last wrote it. */
  get stored(): StoredSession {
    return this.writer.stored
  }

  /** Stop the tool because its session was ended (the record already says so): no write. */
  *halt(reason?: string): Operation<void> {
    if (reason) this.stopReason = reason
    if (!this.ended) yield* this.task.halt()
  }

  /** Let go of the tool while its record stays in the store; the next answer replays it. */
  *dehydrate(): Operation<void> {
    this.dehydrating = true
    yield* this.halt()
  }

  private *ask(request: PendingQuestion): Operation<ElicitAnswer<unknown>> {
    const now = this.timing.now()
    const expiresAt = now + this.timing.idleTimeoutMs
    yield* this.writer.write((record) => ({
      ...record,
      status: 'waiting',
      pending: request.toRecord(),
      updatedAt: now,
      expiresAt,
      keepUntil: expiresAt + this.timing.keepMs,
    }))
    const answer = withResolvers<ElicitAnswer<unknown>>()
    this.answer = answer.resolve
    this.pending = request
    try {
      this.deliver({ type: 'elicit', request })
      return yield* answer.operation
    } finally {
      this.answer = undefined
      this.pending = undefined
    }
  }

  /** A sample's or a step's result, written with what the tool does next (see the class). */
  private *append(entry: JournalEntry): Operation<void> {
    yield* this.writer.append(entry)
    this.onUnwritten?.(this)
  }

  /**
   * Write what the tool received and the store does not have yet, if anything (call it a turn
   * of the event loop after the result came, so that the tool's own next write can take it
   * along). A write that fails stops the tool, and nothing it did since is reported: another
   * process took or stopped the session (reported as aborted), or the store failed (reported as
   * failed).
   */
  *flush(): Operation<void> {
    try {
      yield* this.writer.writeUnwritten()
    } catch (error) {
      yield* this.stopUnwritten(error)
    }
  }

  /**
   * While the tool runs here, moves its lease on (lease.ts; the cache's renewal loop calls it every
   * third of the lease): a slow step or model call is not taken from a live process. Whether it
   * still runs (false: it waits, or has ended). A renewal refused stops the tool as a failed
   * `flush` does.
   */
  *renewLease(): Operation<boolean> {
    if (this.ended) return false
    try {
      return yield* this.writer.renew()
    } catch (error) {
      yield* this.stopUnwritten(error)
      return false
    }
  }

  /** A write failed (`error`): the tool stops, and nothing it did since is reported (see `flush`). */
  private *stopUnwritten(error: unknown): Operation<void> {
    // Nothing more is written from here; what the tool reported since rests on what was not.
    this.writer.forgetUnwritten()
    const terminal = this.events.filter((event) => event.type !== 'log' && event.type !== 'notify')
    this.events.splice(0, this.events.length, ...terminal)
    // A tool that ended meanwhile (its own write refused the same way) has reported how.
    if (this.ended) return
    this.stopEvent =
      error instanceof SessionConflictError
        ? { type: 'aborted', reason: error.message }
        : { type: 'failed', error: new Error(`The ${this.toolName} session could not be recorded: ${error instanceof Error ? error.message : String(error)}`) }
    yield* this.halt()
  }

  /** Record how the tool ended, then report it; a record someone else changed ends it as aborted. */
  private *end(event: Extract<LiveSessionEvent, { type: 'completed' | 'failed' }>): Operation<void> {
    const now = this.timing.now()
    const ending =
      event.type === 'completed'
        ? ({ kind: 'completed', content: event.content } as const)
        : ({ kind: 'failed', message: event.error.message } as const)
    try {
      yield* this.writer.write((record) => ({
        ...record,
        status: event.type,
        pending: undefined,
        ending,
        updatedAt: now,
        expiresAt: now,
        keepUntil: now + this.timing.keepMs,
      }))
    } catch (error) {
      // Whoever drives the session hears how it ended, even when that could not be recorded.
      if (error instanceof SessionConflictError) this.settle({ type: 'aborted', reason: error.message })
      else this.settle({ type: 'failed', error: new Error(`The ${this.toolName} session could not be recorded: ${error instanceof Error ? error.message : String(error)}`) })
      return
    }
    this.settle(event)
  }

  private deliver(event: LiveSessionEvent): void {
    this.events.push(event)
    const waiter = this.waiter
    this.waiter = undefined
    waiter?.()
  }

  private settle(event: Extract<LiveSessionEvent, { type: 'completed' | 'failed' | 'aborted' }>): void {
    this.deliver(event)
  }
}

/** What the model reads as the tool's result; undefined when it cannot be JSON. */
function contentOf(result: unknown): string | undefined {
  if (typeof result === 'string') return result
  try {
    return JSON.stringify(result ?? null)
  } catch {
    return undefined
  }
}
