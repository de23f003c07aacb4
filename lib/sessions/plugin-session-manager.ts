import { resource, sleep, spawn, withResolvers, type Operation } from 'effection'
import type { NamedElicitId } from '../protocol/elicit-id'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { AnyMcpTool, ElicitAnswer } from '../tools/types'
import type { LiveSession, SessionRuntime } from './live-session'
import { lostLiveOnly, replayable } from './live-only'
import { expiredReason, loadSession, type LoadedSession } from './loaded-session'
import { useLiveTools } from './live-tools'
import type { SessionTiming } from './session-writer'
import { SESSION_RECORD_FORMAT, type SessionRecord, type SpanRef } from './session-record'
import type { SessionStore, StoredSession } from './session-store'
import { SessionLimitError } from './errors'
import { answeredIn, refusal, settledOutcome, type AnswerOutcome, type AnswersOutcome, type SessionAnswer, type TakeOverOutcome, type ToolResume } from './answer-outcome'
import { createMemorySessionStore } from './stores/memory-store'
import { DEFAULT_LEASE_MS } from './lease'
import { waitingCalls, type WaitingCall } from './waiting-calls'
import type { PluginSessionManagerOptions, SessionLimits } from './session-manager-options'
import { announceCall } from './call-ends'

export type { LoadedSession, PluginSessionManagerOptions, SessionLimits }
export { DEFAULT_LEASE_MS }

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000
export const DEFAULT_HOT_MS = 60 * 1000
export const DEFAULT_KEEP_MS = 60 * 60 * 1000
/**
 * Ended records are forgotten in batches, at most this often (or every `keepMs`, if shorter).
 * Under steady load the next record is always due within milliseconds: a sweep for each would
 * cost a store write per record, and the memory store a walk of every record it keeps.
 */
const SWEEP_EVERY_MS = 1000

export interface PluginSessionInfo {
  id: string
  toolName: string
  status: 'awaiting_elicit' | 'running'
  ageMs: number
  idleMs: number
}

/**
 * A waiting session as an answer finds it; `cached`: read from the tool waiting in this process,
 * not the store, so recording the answer may find that the store moved on.
 */
type Answerable = Extract<LoadedSession, { kind: 'waiting' }> & { cached?: true }

export interface PluginSessionManager {
  /** Start a tool call as a new session; throws when the call id is taken for this client. */
  start(options: {
    tool: AnyMcpTool
    params: unknown
    callId: string
    clientId: string
    parentMessages: readonly ExtendedMessage[]
    /** Traces on: the call's span, kept with the record for the span that resumes it to link to. */
    span?: SpanRef
  }): Operation<LiveSession>
  /** The session as the store has it, for the client that started it only. */
  load(clientId: string, id: string): Operation<LoadedSession>
  /**
   * Answer the questions a client's tool calls wait on (one answer per call at most): each
   * session is loaded, each answer checked once against its question, and only then, when none
   * is refused, each is recorded with a compare-and-set on the version loaded — so of two
   * deliveries of the same answer one is refused, and a request with one refused answer records
   * none (an answer that merely does not fit its question is rejected alone, and asked again).
   * An accepted answer's tool goes on at once: the one waiting in this process (given the
   * answer from memory, the answer then written with what the tool does next: one write, not
   * two), else a replay of its journal. `parentMessages` is called only for a replay. Each
   * accepted answer is announced (`ends`) once written, as a stop is.
   */
  answer(options: {
    clientId: string
    answers: readonly SessionAnswer[]
    parentMessages(callId: string): readonly ExtendedMessage[]
    /** Traces on: told how each answer's tool goes on, before its write; the span it returns is kept in that write. */
    traceResume?(resume: ToolResume): SpanRef | undefined
  }): Operation<AnswersOutcome>
  /**
   * Take over a running session whose process is gone (`loaded` is `running` and `abandoned`)
   * and run it on by a replay of its journal; undefined when someone else took it first.
   */
  takeOver(options: { loaded: Extract<LoadedSession, { kind: 'running' }>; parentMessages: readonly ExtendedMessage[] }): Operation<TakeOverOutcome | undefined>
  /** Mark a live session as waiting now: it is dropped from memory after the hot time. */
  touch(session: LiveSession): void
  /**
   * Stop a session that waits or runs (`waitingOnly`: only one that waits for an answer), with
   * `reason` as its ending; whether it was stopped here. A stop is announced (`ends`) once
   * written, whoever asked for it: the one place a call's stop is told to the pages following it.
   */
  abort(clientId: string, sessionId: string, reason?: string, options?: { waitingOnly?: boolean }): Operation<boolean>
  listActive(): Operation<PluginSessionInfo[]>
  /** The tool calls that wait for an answer and have not expired, every client's, read from the store. */
  listWaiting(): Operation<WaitingCall[]>
}

/**
 * Plugin sessions as data in a store, for the engine (and anything else that runs tools for a
 * client): it starts them, tells how each stands, takes the answers to their questions and
 * stops them. The tools of recent ones stay alive in this process as a cache (`useLiveTools`);
 * a loop here forgets old records in stores that do not expire them by themselves. Ending the
 * resource halts every tool still in memory; their records stay.
 *
 * Invariant: the store's record is the truth. Every change of a session (an answer recorded, a
 * take-over, an abort) is a compare-and-set on the version read, so two processes or two
 * deliveries of one request never both change it; a tool in memory is used only while the
 * store holds the version it wrote.
 */
export function usePluginSessionManager({
  tools,
  runtime,
  store = createMemorySessionStore(),
  idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS,
  hotMs = DEFAULT_HOT_MS,
  leaseMs = DEFAULT_LEASE_MS,
  keepMs = DEFAULT_KEEP_MS,
  limits = {},
  instance,
  ends,
  report,
  now = Date.now,
}: PluginSessionManagerOptions): Operation<PluginSessionManager> {
  return resource(function* (provide) {
    const timing: SessionTiming = { now, idleTimeoutMs, leaseMs, keepMs, instance }
    const live = yield* useLiveTools({ store, runtime, timing, hotMs, expiredReason: (toolName) => expiredReason(toolName, idleTimeoutMs) })
    let wakeSweep: (() => void) | undefined

    yield* spawn(function* forgetOldRecords() {
      while (true) {
        const next = yield* store.sweep(now())
        if (next === undefined) {
          const woken = withResolvers<void>('a session to forget')
          wakeSweep = woken.resolve
          yield* woken.operation
        }
        // A store that left some due (a full batch) is swept again once other work has had its turn.
        else yield* sleep(next > now() ? Math.min(keepMs, Math.max(next - now(), SWEEP_EVERY_MS)) : 0)
      }
    })

    /**
     * The session an answer to `elicitId` finds: the tool waiting on that question in this
     * process, from memory without a read (recording the answer still checks, by its
     * compare-and-set, that the store has not moved on), else the store's.
     */
    function* loadAnswering(clientId: string, id: string, elicitId: NamedElicitId): Operation<Exclude<LoadedSession, { kind: 'waiting' }> | Answerable> {
      const waiting = live.get(clientId, id)?.waitingOn
      if (waiting && waiting.request.elicitId === elicitId.text && waiting.stored.record.expiresAt > now()) {
        return { kind: 'waiting', ...waiting, cached: true }
      }
      return yield* manager.load(clientId, id)
    }

    /**
     * Record a checked answer to a waiting session, a compare-and-set on the version loaded,
     * and run the tool on with it: undefined when another delivery recorded one first; a
     * message when the tool cannot be run here. `raw` is what the journal keeps (a replay
     * checks it again); `checked` is what the tool receives. When the tool waits in this process
     * (a `cached` load), it is given the answer at once and the answer is written with what it
     * does next (`LiveSession.resumeUnwritten`): one write where there were two.
     */
    function* record(
      loaded: Answerable,
      raw: ElicitAnswer<unknown>,
      checked: ElicitAnswer<unknown>,
      parentMessages: () => readonly ExtendedMessage[],
      traceResume: ((resume: ToolResume) => SpanRef | undefined) | undefined,
    ): Operation<{ session: LiveSession; from: 'memory' | 'replay' } | string | undefined> {
      const { record, version } = loaded.stored
      const pending = record.pending!
      const at = now()
      const journal = [...record.journal, { seq: pending.seq, kind: 'elicit' as const, key: pending.key, answer: raw }]
      const cached = live.get(record.clientId, record.id)
      const hot = cached?.waiting === true && cached.version === version
      const span = traceResume?.({ callId: record.id, toolName: record.toolName, paused: record.span, from: hot ? 'memory' : 'record', replayed: hot ? 0 : journal.length })
      const next: SessionRecord = {
        ...record,
        status: 'running',
        pending: undefined,
        journal,
        updatedAt: at,
        expiresAt: at + leaseMs,
        keepUntil: at + leaseMs + keepMs,
        ...(instance ? { instance } : {}),
        ...(span ? { span } : {}),
      }
      if (loaded.cached && cached?.waiting && cached.version === version) {
        live.answering(cached)
        cached.resumeUnwritten(next, checked)
        return (yield* cached.recorded()) ? { session: cached, from: 'memory' } : undefined
      }
      const written = yield* store.update(next, version)
      if (written === undefined) return undefined
      const taken = { record: next, version: written }
      // Read from the store, but the tool still waits here on what it read: it takes the answer from memory.
      if (cached?.waiting && cached.version === version) {
        live.answering(cached)
        cached.resume(taken, checked)
        return { session: cached, from: 'memory' }
      }
      const replayed = yield* replay(taken, record, parentMessages())
      return typeof replayed === 'string' ? replayed : { session: replayed, from: 'replay' }
    }

    /** Run a taken session on by a replay of its journal (`previous`: the record it was taken from); a message when it cannot be. */
    function* replay(taken: StoredSession, previous: SessionRecord, parentMessages: readonly ExtendedMessage[]): Operation<LiveSession | string> {
      const { record } = taken
      yield* live.forget(record.clientId, record.id)
      const tool = tools(record.toolName, record.clientId)
      if (!tool) return `Session ${record.id} needs the tool "${record.toolName}", which this server does not offer.`
      if (tool.liveOnly && !replayable(previous, tool.liveOnly.startedBy)) return lostLiveOnly(record.toolName)
      return live.remember(live.run({ tool, stored: taken, parentMessages }))
    }

    const manager: PluginSessionManager = {
      *start({ tool, params, callId, clientId, parentMessages, span }) {
        const at = now()
        const record: SessionRecord = {
          format: SESSION_RECORD_FORMAT,
          id: callId,
          clientId,
          toolName: tool.name,
          params: params ?? null,
          status: 'running',
          journal: [],
          createdAt: at,
          updatedAt: at,
          expiresAt: at + leaseMs,
          keepUntil: at + leaseMs + keepMs,
          ...(span ? { span } : {}),
        }
        // Written with what the tool does first (its first question, at once for most tools), in
        // one write instead of two; before it does anything that could be seen outside (see
        // `LiveSession.resumeUnwritten`), and in any case by the next turn of the event loop. The
        // limits are checked by that write, so a refused tool has done nothing outside either.
        const createLimits = limits.maxOpenPerClient !== undefined || limits.maxOpen !== undefined ? { perClient: limits.maxOpenPerClient, all: limits.maxOpen } : undefined
        const session = live.run({ tool, stored: { record, version: 0 }, parentMessages, limits: createLimits })
        let recorded: boolean | undefined
        let refused = false
        try {
          recorded = yield* session.recorded()
        } catch (error) {
          refused = error instanceof SessionLimitError
          throw error
        } finally {
          if (refused) yield* session.halt()
          else if (recorded === undefined) {
            // Halted meanwhile (the turn was stopped): the new session ends with it, in the store too.
            yield* session.halt('The turn was stopped before it finished.')
            yield* manager.abort(clientId, callId, 'The turn was stopped before it finished.')
          }
        }
        if (!recorded) {
          yield* session.halt()
          throw new Error(`A session for tool call ${callId} already exists.`)
        }
        wakeSweep?.()
        wakeSweep = undefined
        return live.remember(session)
      },

      load(clientId, id) {
        return loadSession({ store, tools, now, idleTimeoutMs, heldHere: (clientId, id) => live.get(clientId, id) !== undefined }, clientId, id)
      },

      *answer({ clientId, answers, parentMessages, traceResume }) {
        const outcomes: AnswerOutcome[] = []
        const accepted: Array<{ index: number; loaded: Answerable; given: SessionAnswer; answer: ElicitAnswer<unknown> }> = []
        // Every answer is loaded and checked before any is recorded: a refusal records none.
        for (const [index, given] of answers.entries()) {
          const { callId, elicitId } = given
          const loaded = yield* loadAnswering(clientId, callId, elicitId)
          switch (loaded.kind) {
            case 'missing':
            case 'broken':
              outcomes[index] = settledOutcome(callId, loaded)
              continue
            case 'ended':
              if (answeredIn(loaded.stored.record.journal, elicitId)) return refusal('elicit_already_answered', `Elicitation ${elicitId.text} was already answered.`)
              outcomes[index] = settledOutcome(callId, loaded)
              continue
            case 'running':
              return answeredIn(loaded.stored.record.journal, elicitId)
                ? refusal('elicit_already_answered', `Elicitation ${elicitId.text} was already answered.`)
                : refusal('session_not_waiting', `Tool call ${callId} is not waiting for an answer: it is working in another request.`)
            case 'waiting': {
              const check = loaded.request.check(elicitId, given.result)
              if (check.ok) accepted.push({ index, loaded, given, answer: check.answer })
              else if (check.code === 'invalid_response') {
                outcomes[index] = { kind: 'rejected', callId, question: loaded.request, message: check.message, issues: check.issues }
              } else return refusal(check.code, check.message)
            }
          }
        }
        for (const { index, loaded, given, answer } of accepted) {
          const { callId, elicitId } = given
          const resumed = yield* record(loaded, given.result, answer, () => parentMessages(callId), traceResume)
          if (typeof resumed === 'string') {
            outcomes[index] = { kind: 'lost', callId, error: 'INTERNAL_ERROR', message: resumed }
            continue
          }
          if (resumed) {
            outcomes[index] = { kind: 'accepted', callId, ...resumed }
            // Once written, as a stop is: the person's other pages that show this question learn it was answered.
            if (ends) yield* announceCall(ends, clientId, callId, 'answered', report)
            continue
          }
          // Read from this process's memory, and the store moved on: stopped or expired elsewhere, say so.
          const now = loaded.cached ? yield* manager.load(clientId, callId) : undefined
          if (now?.kind === 'ended' && now.ending.kind === 'aborted' && !answeredIn(now.stored.record.journal, elicitId)) {
            outcomes[index] = settledOutcome(callId, now)
            continue
          }
          return refusal('elicit_already_answered', `Elicitation ${elicitId.text} was answered by another request at the same moment.`)
        }
        return { kind: 'answered', outcomes }
      },

      *takeOver({ loaded, parentMessages }) {
        const { record, version } = loaded.stored
        const at = now()
        const next: SessionRecord = { ...record, updatedAt: at, expiresAt: at + leaseMs, keepUntil: at + leaseMs + keepMs }
        const taken = yield* store.update(next, version)
        if (taken === undefined) return undefined
        const session = yield* replay({ record: next, version: taken }, loaded.stored.record, parentMessages)
        return typeof session === 'string' ? { kind: 'lost', error: 'INTERNAL_ERROR', message: session } : { kind: 'taken', session }
      },

      touch(session) {
        // Dropped from memory, a live-only tool whose outside work began would be lost: it stays
        // until it ends, at the latest at its idle time-out.
        const liveOnly = tools(session.toolName, session.clientId)?.liveOnly
        live.waits(session, { pinned: liveOnly !== undefined && !replayable(session.stored.record, liveOnly.startedBy) })
      },

      *abort(clientId, sessionId, reason = 'Stopped by the user.', { waitingOnly = false } = {}) {
        for (let attempt = 0; attempt < 3; attempt++) {
          const loaded = yield* manager.load(clientId, sessionId)
          if (loaded.kind === 'running' && waitingOnly) return false
          if (loaded.kind !== 'waiting' && loaded.kind !== 'running') {
            yield* live.forget(clientId, sessionId)
            return false
          }
          const at = now()
          const { record, version } = loaded.stored
          const next: SessionRecord = {
            ...record,
            status: 'aborted',
            pending: undefined,
            ending: { kind: 'aborted', reason },
            updatedAt: at,
            expiresAt: at,
            keepUntil: at + keepMs,
          }
          if ((yield* store.update(next, version)) !== undefined) {
            const session = live.get(clientId, sessionId)
            if (session) yield* session.halt(reason)
            if (ends) yield* announceCall(ends, clientId, sessionId, 'stopped', report)
            return true
          }
        }
        return false
      },

      *listActive() {
        const at = now()
        const records = yield* store.list({ statuses: ['waiting', 'running'], limit: 10_000 })
        return records
          // Past its expiry a waiting session has ended, and a running one's process stopped
          // writing (its lease is over): neither is open, as the limits count them too.
          .filter((record) => record.expiresAt > at)
          .map((record) => ({
            id: record.id,
            toolName: record.toolName,
            status: record.status === 'waiting' ? ('awaiting_elicit' as const) : ('running' as const),
            ageMs: at - record.createdAt,
            idleMs: at - record.updatedAt,
          }))
      },

      *listWaiting() {
        const records = yield* store.list({ statuses: ['waiting'], limit: 10_000 })
        return waitingCalls(records, {
          at: now(),
          instance,
          hotMs,
          liveOnly: (toolName, clientId) => tools(toolName, clientId)?.liveOnly?.startedBy,
          heldHere: (record) => Boolean(live.get(record.clientId, record.id)?.waiting),
        })
      },
    }

    // Ending this resource ends the cache's, which halts every tool still in memory.
    yield* provide(manager)
  })
}
