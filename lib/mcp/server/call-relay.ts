import { randomUUID } from 'node:crypto'
import {
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server'
import { until, type Operation, type Scope, type Subscription } from 'effection'
import type { SessionStore } from '../../sessions'
import { CallRecords, type KeptCall, type RoundUnderLease } from '../../sessions/call-records'
import { watchLease } from '../../sessions/lease-watch'
import { EVENT_LOG_START } from '../../sessions/session-store'
import type { AnyMcpTool } from '../../tools/types'
import { CallLog, parseCallEventId } from './call-log'
import { roundBinding } from './mcp-work-in-progress'
import type { LoadedMcpSession } from './mcp-session-data'
import { answerPluginRound, failed, type PluginToolServing } from './register-plugin-tool'
import { asClientRequest, isCancellation, isRelayAnswer, reportingTo, type Cancellation } from './relay-messages'
import { RelayRequestIds } from './relay-request-ids'
import { requestKey, type RelayAnswer, type RelayedCall, type RelayedCallRequest, type RequestId } from './relayed-call'
import type { RoundState } from './round-state'
import { warnFailure } from '../../http/failure-log'

/** The call an answer names, as `readCall` found it (undefined: forgotten). */
export interface CallRead {
  kept: KeptCall<RelayedCall> | undefined
}

export interface CallRelayOptions {
  scope: Scope
  store: SessionStore
  serving: PluginToolServing
  tools: readonly AnyMcpTool[]
  /** The secret the instances share (`stateSecret`): the ids of the relay's requests are signed with a key derived from it. */
  secret: string
  /** How long a call is kept: as long as its round's state is valid. */
  keepMs: number
  retryMs: number
}

/**
 * 2025 calls of plugin tools relayed as data, so that a call in progress belongs to no process.
 * The relay adapts MCP to the session layer, which owns the call's record, its lease and its
 * take-over (`CallRecords`, lib/sessions/call-records.ts): it reads and writes the call only
 * through that API.
 *
 * Where the SDK's shim would keep the call in memory (send the questions on the call's stream,
 * await the answers, run the handler again), the relay keeps it in the store: on
 * `input_required` it records the round (its sealed state, its questions), and sends each
 * question as a request whose id names the call, the round and the input key, signed
 * (relay-request-ids.ts). An answer — a JSON-RPC response POSTed to any
 * instance — is recorded with compare-and-set; the instance whose write completes the round's
 * answers runs the next round itself (`answerPluginRound`: the round ledger answers each state
 * once, so a round run twice books once), and appends what the call sends next to the call's
 * log (call-log.ts), from which the client's stream is forwarded wherever it is held.
 *
 * A round being run holds a lease (lib/sessions/lease.ts): the call's `running` record says
 * until when its runner is presumed alive, and the runner renews it while the round runs. Should
 * the runner die (`kill -9`) in the middle of the round, whoever serves the call's stream, on any
 * instance, takes the round over once the lease has passed (lib/sessions/lease-watch.ts): a
 * compare-and-set of the record under a lease of its own (`CallRecords.run`), then the round run
 * again from the recorded answers and the sealed state; the round ledger's claim of that state is
 * taken over the same way, so the round books once — and a round that had recorded its answer is
 * answered from the ledger, not run again. What the cut round did before its next question is
 * done again: a tool's outside effects there must bear a second run (docs/mcp-server.md).
 *
 * Invariants: of several answers completing a round, exactly one write wins and exactly one
 * instance runs the next round; of several instances taking over a round whose lease passed,
 * exactly one does, and a runner that lost its lease changes the call's record no more (every
 * write of it is a compare-and-set on the version written last); an answer to another session,
 * an earlier round or no question changes nothing; the call's record is written before its next
 * questions are in the log, so an answer never arrives before the question it answers is
 * recorded; a round's lease is in the log before the record says `running`, so no round runs
 * unknown to the streams that watch for its runner's death; and a call's result is in its log
 * before its record says `completed`, so a crash between the two loses nothing (the round taken
 * over is answered from the ledger, and the streams end at the first result).
 *
 * The one thing a lease cannot tell apart: a runner alive but silent past its lease (its event
 * loop stalled, the store out of its reach) is taken for dead. Its round then runs twice; the
 * first records nothing once it learns it was taken over (`RoundUnderLease.lost`), but one that
 * ends before learning it may still put its result in the log first.
 */
export class CallRelay {
  private readonly log: CallLog
  private readonly tools: Map<string, AnyMcpTool>
  private readonly ids: RelayRequestIds
  private readonly records: CallRecords<RelayedCall>
  /** Rounds running here: `settle` waits for them, so a graceful close interrupts none. */
  private readonly running = new Set<Promise<unknown>>()

  constructor(private readonly options: CallRelayOptions) {
    this.log = new CallLog(options.scope, options.store.events, options.retryMs)
    this.tools = new Map(options.tools.map((tool) => [tool.name, tool]))
    this.ids = new RelayRequestIds(options.secret)
    this.records = new CallRecords<RelayedCall>(options.store, { scope: options.scope, keepMs: options.keepMs, leaseMs: options.serving.ledger.leaseMs, report: warnFailure })
  }

  /** Whether `message` is a `tools/call` of a plugin tool: the relay serves it in a 2025 session. */
  relays(message: unknown): message is RelayedCallRequest {
    const call = message as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null
    return (
      typeof call === 'object' &&
      call !== null &&
      call.method === 'tools/call' &&
      (typeof call.id === 'string' || typeof call.id === 'number') &&
      typeof call.params?.name === 'string' &&
      this.tools.has(call.params.name)
    )
  }

  /** Whether `message` is a response to a relay request, by its id's form (valid or forged: `answer` tells). */
  answers(message: unknown): message is RelayAnswer {
    return isRelayAnswer(message)
  }

  /**
   * The call an answer names, for `answer`: the endpoint runs this beside its read of the session
   * (both awaited together), so that an answer costs one round trip to the store for both.
   * Undefined for an id that is not genuine in `sessionId`.
   */
  *readCall(message: RelayAnswer, sessionId: string): Operation<CallRead | undefined> {
    const named = this.ids.parse(message.id, sessionId)
    if (!named) return undefined
    return { kept: yield* this.records.get(named.callId) }
  }

  /** Whether `id` is a genuine id of a request the relay sent in `sessionId` (admission: an answer continues a call). */
  isGenuineAnswer(id: unknown, sessionId: string): boolean {
    return typeof id === 'string' && this.ids.parse(id, sessionId) !== undefined
  }

  /** A new call: its first round runs here, and the response is the call's stream. */
  async start(session: LoadedMcpSession, message: RelayedCallRequest): Promise<Response> {
    const callId = randomUUID()
    const progressToken = message.params._meta?.progressToken
    const call: RelayedCall = {
      sessionId: session.id,
      owner: session.data.owner,
      requestId: message.id,
      ...(progressToken !== undefined ? { progressToken } : {}),
      toolName: message.params.name,
      args: message.params.arguments ?? {},
      round: 0,
      asked: {},
      answers: {},
    }
    await this.options.scope.run(() => this.records.index(requestKey(session.id, message.id), callId, call.toolName))
    await this.track(this.runRound({ callId, call, round: undefined, session, responses: undefined }))
    return this.log.stream({ callId, after: EVENT_LOG_START, sessionId: session.id, watch: this.watcher(callId, session) })
  }

  /**
   * A client's answer to one of the relay's requests: recorded, and when it completes its round,
   * the next round is run here. 202 when accepted (a late or repeated answer too, which changes
   * nothing); 400 for an id no request of this session had (forged, another session's, or a call
   * already forgotten).
   */
  async answer(session: LoadedMcpSession, message: RelayAnswer, read?: CallRead): Promise<Response> {
    const named = this.ids.parse(message.id, session.id)
    if (!named) return refused('Bad Request: this response answers no request of this session.')
    const { scope } = this.options
    for (let tries = 0; tries < 20; tries++) {
      const kept = tries === 0 && read ? read.kept : await scope.run(() => this.records.get(named.callId))
      if (!kept) return refused('Bad Request: the call this response answers has ended and is forgotten.')
      const { call } = kept
      if (call.sessionId !== session.id) return refused('Bad Request: this response answers no request of this session.')
      // An answer to an earlier round, a question not asked, or one answered already: accepted, and nothing changes.
      if (kept.status !== 'waiting' || call.round !== named.round || !(named.key in call.asked) || named.key in call.answers) return accepted()
      const answers = { ...call.answers, [named.key]: message.error ? { error: message.error } : { result: message.result } }
      const next: RelayedCall = { ...call, answers }
      if (!Object.keys(call.asked).every((key) => key in answers)) {
        // Another answer was written first: read again.
        if ((await scope.run(() => this.records.update(kept, next, 'waiting'))) === undefined) continue
        return accepted()
      }
      // The streams learn of the round before it may run (and its runner die).
      const round = await scope.run(() => this.records.run(kept, next, ({ runningUntil, keepUntil }) => this.log.running(named.callId, runningUntil, keepUntil)))
      if (!round) continue
      await this.track(this.continueCall({ callId: named.callId, call: next, round, session }))
      return accepted()
    }
    return refused('Bad Request: this answer could not be recorded; send it again.', 409)
  }

  /** Whether `message` is `notifications/cancelled` naming a request. */
  cancels(message: unknown): message is Cancellation {
    return isCancellation(message)
  }

  /**
   * The client cancelled the `tools/call` `requestId` (MCP's Stop): a relayed call in this session
   * ends where it is — its questions answer nothing any more, no round of it runs again, and its
   * streams end without a response. 202; undefined when no relayed call has that id (the SDK's
   * own request, for it to cancel).
   */
  async cancel(session: LoadedMcpSession, requestId: RequestId): Promise<Response | undefined> {
    const { scope } = this.options
    const callId = await scope.run(() => this.records.callIdOf(requestKey(session.id, requestId)))
    if (callId === undefined) return undefined
    for (let tries = 0; tries < 20; tries++) {
      const kept = await scope.run(() => this.records.get(callId))
      if (!kept || kept.status === 'completed') return accepted()
      const keepUntil = await scope.run(() => this.records.update(kept, { ...kept.call, asked: {}, answers: {} }, 'completed'))
      if (keepUntil === undefined) continue
      await scope.run(() => this.log.end(callId, keepUntil))
      return accepted()
    }
    return refused('Bad Request: the call could not be cancelled; send it again.', 409)
  }

  /**
   * A client resuming a relayed call's stream with `Last-Event-ID`: the events after it, then the
   * rest, until the call's result. Undefined when the id is not a relayed call's (the SDK's own
   * streams); 400 when it names a call of another session or one forgotten.
   */
  async resume(session: LoadedMcpSession, lastEventId: string): Promise<Response | undefined> {
    const named = parseCallEventId(lastEventId)
    if (!named) return undefined
    const kept = await this.options.scope.run(() => this.records.get(named.callId))
    if (!kept || kept.call.sessionId !== session.id) {
      return refused('Bad Request: Last-Event-ID names no stream of this session.')
    }
    return this.log.stream({ callId: named.callId, after: named.after, sessionId: session.id, watch: this.watcher(named.callId, session, kept) })
  }

  /** Waits for the rounds running here (a graceful close). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running])
  }

  /** What a stream of the call runs beside it: the take-over of a round whose runner died (lib/sessions/lease-watch.ts). */
  private watcher(callId: string, session: LoadedMcpSession, first?: KeptCall<RelayedCall>): (leaseEnds: Subscription<number, never>) => Operation<void> {
    return (leaseEnds) =>
      watchLease({
        notices: leaseEnds,
        first,
        read: () => this.records.get(callId),
        // In the relay's scope, not the stream's: a round taken over runs to its end even if this stream's client leaves.
        takeOver: (kept) => until(this.track(this.takeOver({ kept, session }))),
      })
  }

  /** Takes over the round of a call whose runner's lease passed, and runs it here under a lease of its own. */
  private async takeOver({ kept, session }: { kept: KeptCall<RelayedCall>; session: LoadedMcpSession }): Promise<void> {
    const round = await this.options.scope.run(() => this.records.run(kept, kept.call))
    // Another instance took it over first, or the call moved on.
    if (!round) return
    try {
      await this.continueCall({ callId: kept.callId, call: kept.call, round, session, takingOver: true })
    } catch (error) {
      // The round could not be run (the store unreachable): its lease passes again, and a stream takes it over then.
      warnFailure('mcp_round_takeover_failed', 'a relayed MCP call’s round taken over failed', error)
    }
  }

  private async track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work)
    try {
      return await work
    } finally {
      this.running.delete(work)
    }
  }

  /** The round after a completed set of answers: a client's error ends the call with it; otherwise the tool runs on. */
  private async continueCall({
    callId,
    call,
    round,
    session,
    takingOver = false,
  }: {
    callId: string
    call: RelayedCall
    round: RoundUnderLease<RelayedCall>
    session: LoadedMcpSession
    /** The round is run again: its runner's lease passed. */
    takingOver?: boolean
  }): Promise<void> {
    const failedAnswer = Object.entries(call.answers).find(([, answer]) => answer.error)
    if (failedAnswer) {
      const [key, { error }] = failedAnswer
      const result = failed(`The client could not answer ${key}: ${typeof error?.message === 'string' ? error.message : 'it answered with an error'}`)
      await this.finish({ callId, call, round, messages: [], result })
      return
    }
    const responses = Object.fromEntries(Object.entries(call.answers).map(([key, answer]) => [key, answer.result]))
    await this.runRound({ callId, call, round, session, responses, takingOver })
  }

  /** Runs a round of the call here and records what it sends: its next questions, or its result. */
  private async runRound({
    callId,
    call,
    round,
    session,
    responses,
    takingOver = false,
  }: {
    callId: string
    call: RelayedCall
    /** The round as the call's record holds it, under its lease; undefined for the call's first round, before its record is written. */
    round: RoundUnderLease<RelayedCall> | undefined
    session: LoadedMcpSession
    responses: Record<string, unknown> | undefined
    takingOver?: boolean
  }): Promise<void> {
    const { serving } = this.options
    const renewing = round && this.options.scope.run(() => round.keep())
    try {
      const tool = this.tools.get(call.toolName)!
      const binding = roundBinding('tools/call', call.owner)
      let state: RoundState | undefined
      if (call.requestState !== undefined) {
        state = serving.codec.open(call.requestState, binding)
        if (!state) {
          await this.finish({ callId, call, round, messages: [], result: failed('This call waited too long for its answers. Call the tool again.') })
          return
        }
      }
      const messages: JSONRPCMessage[] = []
      const result = await answerPluginRound({
        tool,
        args: call.args,
        state,
        responses,
        capabilities: session.data.initialize.capabilities,
        reporting: reportingTo(messages, call.progressToken, session.data.loggingLevel),
        // The round runs to its end wherever its answer came from; closing this instance waits for it (`settle`).
        signal: new AbortController().signal,
        seal: async (sealed) => serving.codec.seal(sealed, binding),
        serving,
        takingOver,
      })
      if (!isInputRequiredResult(result)) {
        await this.finish({ callId, call, round, messages, result: result as CallToolResult })
        return
      }
      const asked = (result as InputRequiredResult).inputRequests ?? {}
      const next: RelayedCall = {
        ...call,
        round: call.round + 1,
        requestState: (result as InputRequiredResult).requestState,
        asked: Object.fromEntries(Object.entries(asked).map(([key, request]) => [key, request.method])),
        answers: {},
      }
      for (const [key, request] of Object.entries(asked)) {
        messages.push({ jsonrpc: '2.0', id: this.ids.of(call.sessionId, callId, next.round, key), ...asClientRequest(request) } as JSONRPCMessage)
      }
      const keepUntil = await this.writeUnder(round, callId, next, 'waiting')
      if (keepUntil === undefined) return
      await this.options.scope.run(() => this.log.append(callId, messages, keepUntil))
    } finally {
      // The lease ends with the round's last write; a renewal still asleep is stopped here.
      await renewing?.halt()
    }
  }

  /** The call's last messages and its result, in its log; the call is then completed. */
  private async finish({ callId, call, round, messages, result }: { callId: string; call: RelayedCall; round: RoundUnderLease<RelayedCall> | undefined; messages: JSONRPCMessage[]; result: CallToolResult }): Promise<void> {
    // Taken over while it ran (this instance was presumed dead): the round's result is the other's to send.
    if (round?.lost) return
    await this.options.scope.run(() => this.log.append(callId, [...messages, { jsonrpc: '2.0', id: call.requestId, result } as JSONRPCMessage], this.records.keepUntil()))
    await this.writeUnder(round, callId, { ...call, asked: {}, answers: {} }, 'completed')
  }

  /** The round's last write of the call: under its lease (`round.end`), or the call's first, a create; the `keepUntil` written, undefined when refused. */
  private writeUnder(round: RoundUnderLease<RelayedCall> | undefined, callId: string, call: RelayedCall, status: 'waiting' | 'completed'): Promise<number | undefined> {
    if (round) return round.end(call, status)
    return this.options.scope.run(() => this.records.create(callId, call, status))
  }
}

function accepted(): Response {
  return new Response(null, { status: 202 })
}

function refused(message: string, status = 400): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }, { status })
}
