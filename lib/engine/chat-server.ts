import { randomBytes } from 'node:crypto'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { context, type Tracer } from '@opentelemetry/api'
import { createScope, suspend, type Operation } from 'effection'
import {
  createMemorySessionStore,
  moveWaitingSessions,
  usePluginSessionManager,
  type PluginSessionInfo,
  type PluginSessionManager,
  type SessionLimits,
  type SessionRuntime,
  type SessionStore,
  type WaitingCall,
} from '../sessions'
import { createLocalCallEnds, type CallEnds } from '../sessions/call-ends'
import type { Work } from '../http/admission'
import { createCallIdIssuer } from './call-ids'
import { createConversationSigner } from './conversation-signature'
import { createRateLimiter } from '../http/rate-limiter'
import { DEFAULT_TOOL_CONTEXT_BYTES } from './tool-context'
import { checkLimits, type BranchLimits } from '../tools/limits'
import type { AnyMcpTool } from '../tools/types'
import { DEFAULT_SYSTEM_PROMPT, runTurn, type ChatEngineConfig } from './run-turn'
import type { ModelCallReport } from './model-step'
import type { AnswerMetricOutcome } from './answer-metric'
import { ChatRequestError, toChatFailure } from '../http/errors'
import { openNdjsonStream } from './ndjson-stream'
import { runNow } from './run-now'
import { createTurnRunner } from './turn-runner'
import { createWorkInProgress } from './work-in-progress'
import { prepareTurn, refuseWhenBudgetSpent, type TurnPlan } from './prepare-turn'
import { chatRequestSchema } from '../protocol/request-schema'
import { createModelSampler } from '../runtime/sample-with-model'
import type { ExternalToolSource } from '../tools/external-tools'
import { createToolRegistry, type ExternalToolAudience, type ToolAsker, type ToolDescription } from './tool-registry'
import type { OpenTurnOptions } from '../http/handle-chat-request'
import { toIssues } from '../runtime/json-schema'
import type { Question } from '../protocol/question'
import { turnInputOf, type ChatHistory } from './chat-history-port'
import type { ChatEvent } from '../protocol/events'
import type { WatchedCall } from '../protocol/ended-call'
import { parseElicitId } from '../protocol/elicit-id'
import type { Budget } from '../budgets/budget'
import { startTurnTrace } from './turn-trace'
import { TraceParent } from '../runtime/trace-parent'
import { callStandingOf, type CallStanding } from './call-standing'
import { warnFailure } from '../http/failure-log'

export interface ChatServerOptions {
  model: LanguageModelV3
  tools: readonly AnyMcpTool[]
  /** Tools of external MCP servers, offered beside `tools` while their servers are up. */
  externalTools?: ExternalToolSource
  /** Who may use which external server's tools (with sign-in, mcp.json's `users`); without it, everyone every tool. */
  toolAudience?: ExternalToolAudience
  systemPrompt?: string
  /** Model calls per turn at most (default 8). */
  maxIterations?: number
  /** Tool calls run per model call at most (default 8); the rest get a tool error the model reads. */
  maxToolCallsPerStep?: number
  /** Output tokens per model call at most, chat steps and samples (default: the model's own limit). */
  maxOutputTokens?: number
  /** A model call, chat step or sample, fails after this long (default: no limit). */
  modelTimeoutMs?: number
  /** Told of each chat step's model call once it is over: its duration, tokens or error (the server's metrics). */
  observeModelCall?: (report: ModelCallReport) => void
  /** Told what became of each answer to a waiting tool (the server's metrics). */
  observeAnswer?: (outcome: AnswerMetricOutcome) => void
  /** The most of the conversation a tool keeps as `ctx.parentMessages`, in JSON bytes (default 16 KiB). */
  maxToolContextBytes?: number
  /** Open sessions per client and in total at most (default: no limit). */
  sessionLimits?: SessionLimits
  /**
   * Tools one client address may start, at once and per second sustained (default: no limit):
   * new identities are free to make, so this keeps one address from filling `sessionLimits.maxOpen`.
   */
  toolStartsPerAddress?: { burst: number; perSecond: number }
  /**
   * Signs the assistant and tool messages handed out (`SESSION_SECRET`): every instance, and
   * the same server after a restart, must have the same one to accept conversations it issued.
   * Default: one made for this server only (enough for a test).
   */
  secret?: string
  idleTimeoutMs?: number
  /** How long a waiting tool stays in memory before an answer must replay it. */
  hotMs?: number
  /** How long a running session's process may go without writing before another may take it over. */
  leaseMs?: number
  /** This server instance's name, kept in the session records it writes (the operator's view says where a call waits). */
  instance?: string
  /** The sessions' clock (default `Date.now`): when a question was asked, when it expires. */
  now?: () => number
  /**
   * Where sessions are kept, opened in the server's scope and closed with it (default: in
   * memory, for tests). The app passes the embedded store, or Redis.
   */
  useStore?: () => Operation<SessionStore>
  /**
   * How the sessions announce each call they stop (a Stop, a move-on, an operator's End) or
   * whose question they take an answer to, to every instance sharing the store (`CallEnds`), opened in the server's scope and closed with it
   * (default: within this process). The app passes Redis pub/sub with `REDIS_URL`.
   */
  useCallEnds?: () => Operation<CallEnds>
  /** The runtime's limits on tools' branches; a tool's `.limits()` and each branch site win over them. */
  branchLimits?: BranchLimits
  /**
   * Where a request that names a chat (`chatId`) keeps its turn (the app's chats,
   * `lib/conversations`). Without it, a request with a `chatId` is refused: there is no chat.
   */
  history?: ChatHistory
  /**
   * The model budgets (`MODEL_BUDGET_TOKENS_PER_DAY`): the tokens the model reports for each
   * client's turns and samples are counted, and a new message is refused (429
   * `budget_exhausted`) once its client's limit is spent. Without it nothing is counted or read.
   */
  budget?: Budget
  /**
   * Traces (`turn-trace.ts`): each turn's spans, children of the request's (the context active
   * when `open` is called). Without a tracer no span is made.
   */
  tracer?: Tracer
  /** Message contents, answers and a question's context on spans (default: never). */
  traceContent?: boolean
}

/**
 * The chat engine with its long-lived scope: plugin sessions live here between requests. This is
 * the engine's own server resource, independent of Next and of any configuration: tests and the
 * bench make one directly. `lib/server/` is something else, the app's composition root, which
 * reads the environment and builds the one instance the routes use (`chat-server-instance.ts`).
 */
export interface ChatServer {
  /**
   * Validate a request body against the contract and the live sessions (a refusal rejects with
   * `ChatRequestError`, a store that cannot be reached with `SessionStoreUnavailableError`, both
   * before any byte; `toChatFailure` makes either a response), then run the turn, streaming NDJSON events; `signal`
   * (the request's) stops it; `onEnd` hears when the body has ended. One task does both.
   */
  open(options: OpenTurnOptions): Promise<ReadableStream<Uint8Array>>
  /**
   * Whether a request body (not yet validated) continues this client's work in progress — an
   * answer to a question, a Stop — from the tool call ids it names (work-in-progress.ts): what
   * admission puts first under load.
   */
  workOf(body: unknown, clientId: string): Work
  /** The sessions that wait or run; a `SessionStoreUnavailableError` (`toChatFailure`: a 503) when the store cannot be reached. */
  listActive(): Promise<PluginSessionInfo[]>
  /** The tool calls that wait for an answer, every client's and every instance's (the store's records). */
  listWaiting(): Promise<WaitingCall[]>
  /**
   * End a tool call that waits for an answer, with `reason` as its ending (the person's chat
   * says it when it next touches the call, as it says an expiry, and a page following it hears it
   * at once: the stop is announced); false when it waits no more.
   */
  endWaiting(options: { clientId: string; callId: string; reason: string }): Promise<boolean>
  /**
   * The question a client's tool call waits on now, with its context; undefined when it waits
   * on none (answered, ended, another client's). Read only: what something outside the turn
   * needs to serve that one question, e.g. the MCP App an external server's form names.
   */
  waitingQuestion(options: { clientId: string; callId: string }): Promise<Question | undefined>
  /** How a client's tool call stands now (`call-standing.ts`): waiting, running, or ended with what its chat's next turn would say; one read of the store. */
  callStanding(options: { clientId: string; callId: string }): Promise<CallStanding>
  /** Every tool the one asking can use now (`asker`: their client id and, with sign-in, the person), the app's own and external ones. */
  listTools(asker?: ToolAsker): ToolDescription[]
  /**
   * The calls announced from now on, every instance's (`CallEnds.listen`; the sessions announce
   * each stop they write and each answer they accept): what a page that follows a chat's waiting
   * calls listens to.
   */
  callEnds: Pick<CallEnds, 'listen'>
  /** Moves `from`'s waiting tool sessions to `to` (a browser's to the account it signs in to: `moveWaitingSessions`); how many moved. */
  moveWaiting(options: { from: string; to: string }): Promise<number>
  /** Halt every session and the scope. */
  close(): Promise<void>
}

export type { CallStanding, WaitingCall }

/** `emit`, noting each question asked in `asked`. */
function askedBy(asked: WatchedCall[], emit: (event: ChatEvent) => void): (event: ChatEvent) => void {
  return (event) => {
    if (event.type === 'plugin_elicit_request') {
      const seq = parseElicitId(event.elicitId)?.seq
      if (seq !== undefined) asked.push({ callId: event.callId, question: { elicitId: event.elicitId, seq } })
    }
    emit(event)
  }
}

/** Stores the refusal of a recorded turn; if that fails too, the refusal itself is still the answer. */
function* keepRefusal(append: () => Operation<void>): Operation<void> {
  try {
    yield* append()
  } catch {
    // The chat shows the turn without its refusal; the browser was told it.
  }
}

/**
 * `ctx.sample` counted to the budget of the client whose tool asked. A sample is never refused:
 * the tool asking is work in progress, which finishes; what it used is counted all the same.
 */
function countedSampler(sample: SessionRuntime['sample'], budget: Budget | undefined): SessionRuntime['sample'] {
  if (!budget) return sample
  return function* (request, clientId) {
    const result = yield* sample(request, clientId)
    yield* budget.spend(clientId, (result.usage?.inputTokens ?? 0) + (result.usage?.outputTokens ?? 0))
    return result
  }
}

export async function createChatServer({
  model,
  tools,
  externalTools,
  toolAudience,
  systemPrompt = DEFAULT_SYSTEM_PROMPT,
  maxIterations = 8,
  maxToolCallsPerStep = 8,
  maxOutputTokens,
  modelTimeoutMs,
  observeModelCall,
  observeAnswer,
  sessionLimits,
  toolStartsPerAddress,
  maxToolContextBytes = DEFAULT_TOOL_CONTEXT_BYTES,
  secret = randomBytes(32).toString('base64url'),
  idleTimeoutMs,
  hotMs,
  leaseMs,
  instance,
  now = Date.now,
  useStore,
  useCallEnds,
  branchLimits,
  history,
  budget,
  tracer,
  traceContent = false,
}: ChatServerOptions): Promise<ChatServer> {
  if (branchLimits) checkLimits('createChatServer branchLimits', branchLimits)
  const registry = createToolRegistry(tools, externalTools, toolAudience)
  const [scope, destroy] = createScope()
  const { sessions, store, ends } = await new Promise<{ sessions: PluginSessionManager; store: SessionStore; ends: CallEnds }>((resolve, reject) => {
    scope
      .run(function* () {
        const store = useStore ? yield* useStore() : createMemorySessionStore()
        const ends = useCallEnds ? yield* useCallEnds() : createLocalCallEnds()
        resolve({
          store,
          ends,
          sessions: yield* usePluginSessionManager({
            tools: registry.get,
            // Made once per server: a closure made in a turn would keep the turn alive while a session waits.
            runtime: {
              sample: countedSampler(createModelSampler(model, { timeoutMs: modelTimeoutMs, maxOutputTokens }), budget),
              limits: branchLimits,
              parentSystemPrompt: systemPrompt,
            },
            store,
            limits: sessionLimits,
            idleTimeoutMs,
            hotMs,
            leaseMs,
            instance,
            ends,
            now,
            report: warnFailure,
          }),
        })
        yield* suspend()
      })
      .catch(reject)
  })
  const signer = createConversationSigner({ secret })
  const callIds = createCallIdIssuer({ secret })
  const workInProgress = createWorkInProgress({ callIds })
  const config: ChatEngineConfig = {
    model,
    tools: registry,
    sessions,
    systemPrompt,
    maxIterations,
    maxToolCallsPerStep,
    maxOutputTokens,
    modelTimeoutMs,
    observeModelCall,
    maxToolContextBytes,
    signer,
    callIds,
    toolStarts: toolStartsPerAddress && createRateLimiter(toolStartsPerAddress),
    budget,
  }
  const inScope = <T>(operation: () => Operation<T>) => scope.run(operation)
  const turns = createTurnRunner(scope)

  return {
    async open({ body, clientId, person, address = 'unknown', signal, onEnd: ended, follow }) {
      const parsed = chatRequestSchema.safeParse(body)
      if (!parsed.success) {
        throw new ChatRequestError('invalid_request', 'The request body does not match the chat contract.', toIssues(parsed.error))
      }
      const request = parsed.data
      const { chatId } = request
      const trace = tracer && startTurnTrace({ tracer, model, chatId, captureContent: traceContent, parent: context.active() })
      const onEnd = trace ? (errorCode?: string) => (trace.end(errorCode), ended?.(errorCode)) : ended
      // With traces on, what the turn does below it (the stores' reads and writes) is under its span.
      const within = trace ? <T>(operation: Operation<T>) => TraceParent.with(() => trace.context, () => operation) : <T>(operation: Operation<T>) => operation
      const run = (plan: TurnPlan, emit: (event: ChatEvent) => void) => within(runTurn({ plan, config, emit, trace }))
      const prepareOnly = () =>
        within(prepareTurn({ request, clientId, person, address, sessions, signer, availabilityOf: registry.availabilityOf, maxToolContextBytes, observeAnswer, traceResume: trace?.resumeTool }))
      // A new message of a client whose model budget is spent is refused first: before anything is prepared or recorded.
      const refuseSpent = budget && (() => refuseWhenBudgetSpent({ request, clientId, budget }))
      try {
        if (chatId === undefined) {
          const prepare = refuseSpent
            ? function* () {
                yield* refuseSpent()
                return yield* prepareOnly()
              }
            : prepareOnly
          return await openNdjsonStream({ runner: turns, signal, onEnd, prepare, run })
        }
        if (!history) throw new ChatRequestError('chat_not_found', 'This server keeps no chats: send the request without chatId.')
        /** The questions this turn asks, followed on its response once it has ended (`follow`). */
        const asked: WatchedCall[] | undefined = request.follow && follow ? [] : undefined
        return await openNdjsonStream({
          runner: turns,
          signal,
          onEnd,
          // The turn is checked first: answers handed to the sessions by `prepareTurn` are never
          // lost to a chat that turns out to be someone else's or full. Its input is stored with
          // its first batch (`openNdjsonStream`'s `keep`), or with its refusal, as the turn's one
          // event that the browser shows.
          prepare: function* () {
            if (refuseSpent) yield* refuseSpent()
            const kept = yield* within(history.openTurn(clientId, chatId, turnInputOf(request), { create: request.newChat === true }))
            try {
              return { plan: yield* prepareOnly(), kept }
            } catch (error) {
              const failure = toChatFailure(error)
              if (failure) yield* keepRefusal(() => within(kept.keep([{ type: 'error', code: failure.code, message: failure.message }])))
              throw error
            }
          },
          run: ({ plan }, emit) => run(plan, asked ? askedBy(asked, emit) : emit),
          follow: asked && (() => (asked.length > 0 ? follow!(asked) : Promise.resolve(undefined))),
          // At once when the store's write needs no task (the embedded and memory stores), else on one of the turn runner's
          // long-lived tasks: a turn stores once per batch, and while many turns stream no runner is free, so each would make a task.
          keep: ({ kept }, events: readonly ChatEvent[], json: readonly string[]) => runNow(() => within(kept.keep(events, json)), (operation) => turns.run(operation)),
        })
      } catch (error) {
        // Refused before streaming: the turn's span ends, saying why.
        trace?.end(toChatFailure(error)?.code ?? 'turn_failed')
        throw error
      }
    },
    workOf: (body, clientId) => workInProgress.workOf(body, clientId),
    listActive: () => inScope(() => sessions.listActive()),
    listWaiting: () => inScope(() => sessions.listWaiting()),
    endWaiting: ({ clientId, callId, reason }) => inScope(() => sessions.abort(clientId, callId, reason, { waitingOnly: true })),
    waitingQuestion: ({ clientId, callId }) =>
      inScope(function* () {
        const loaded = yield* sessions.load(clientId, callId)
        if (loaded.kind !== 'waiting') return undefined
        return loaded.request.question
      }),
    // Without a task when the store reads without one (the embedded and memory stores): a follow reads it for every question shown.
    callStanding: ({ clientId, callId }) =>
      runNow(function* () {
        return callStandingOf(callId, yield* sessions.load(clientId, callId))
      }, inScope),
    callEnds: { listen: ends.listen },
    listTools: (asker) => registry.describe(asker),
    moveWaiting: ({ from, to }) => inScope(() => moveWaitingSessions(store, { from, to, now: now() })),
    close: () => {
      turns.close()
      return destroy()
    },
  }
}
