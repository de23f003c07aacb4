import type { LanguageModelV3 } from '@ai-sdk/provider'
import { all, type Operation } from 'effection'
import type { PendingQuestion } from '../runtime/pending-question'
import { SessionLimitError, type LiveSession, type PluginSessionManager } from '../sessions'
import { toChatFailure } from '../http/errors'
import type { CallIdIssuer } from './call-ids'
import type { ConversationSigner } from './conversation-signature'
import type { RateLimiter } from '../http/rate-limiter'
import { driveSession, type DriveOutcome } from './drive-session'
import type { ChatEvent } from '../protocol/events'
import { callTitleOf } from '../tools/call-title'
import type { Message, ToolCall } from '../protocol/messages'
import { toolContextOf } from './tool-context'
import { ModelTimeoutError, streamModelStep, type ModelCallReport, type ModelStepResult } from './model-step'
import type { TurnTrace } from './turn-trace'
import type { Budget } from '../budgets/budget'
import type { TurnPlan } from './prepare-turn'
import { withAppContext } from './app-context'
import type { ToolRegistry } from './tool-registry'
import { callStandingOf } from './call-standing'

export const LOST_SESSION_MESSAGE = 'Error: Plugin session was lost. Please retry the operation.'

/** Why a call the person moved on from (a new message while it waited) was stopped: the page that still shows it says so. */
export const MOVED_ON_REASON = 'The user moved on before answering.'

export const DEFAULT_SYSTEM_PROMPT = [
  'You are a helpful assistant in a chat app.',
  'Use the available tools when they fit the request. Tools ask the user for their choices through their own interface, so do not ask for those details yourself.',
  'After a tool returns, summarise its result for the user in a few sentences.',
].join(' ')

export interface ChatEngineConfig {
  model: LanguageModelV3
  tools: ToolRegistry
  sessions: PluginSessionManager
  systemPrompt: string
  /** Model calls in one turn at most (each may call tools). */
  maxIterations: number
  /** Tool calls run per model call at most; the calls past it get a tool error the model reads. */
  maxToolCallsPerStep: number
  /** Output tokens per model call at most (undefined: the model's own limit). */
  maxOutputTokens?: number
  /** A model call that has not finished after this long fails the turn (undefined: no limit). */
  modelTimeoutMs?: number
  /** The most of the conversation a tool keeps as `ctx.parentMessages` (JSON bytes; see `toolContextOf`). */
  maxToolContextBytes: number
  /** Signs the conversation handed back in `conversation_state`. */
  signer: ConversationSigner
  /** Makes the ids of the tool calls models return unique on this server. */
  callIds: CallIdIssuer
  /** Tools started per client address (undefined: no limit). */
  toolStarts?: RateLimiter
  /** Told of each model call of a turn once it is over (the server's metrics). */
  observeModelCall?: (report: ModelCallReport) => void
  /** The model budgets: each model step's tokens are counted to the turn's client (undefined: not counted). */
  budget?: Budget
}

interface Waiting {
  call: ToolCall
  request: PendingQuestion
}

/**
 * One turn of the chat: stop what the client aborted, resume what it answered, then let the
 * model talk and call tools until it is done or a tool waits for the user.
 */
export function* runTurn({
  plan,
  config,
  emit,
  trace,
}: {
  plan: TurnPlan
  config: ChatEngineConfig
  emit(event: ChatEvent): void
  /** The turn's spans, when traces are exported. */
  trace?: TurnTrace
}): Operation<void> {
  const { clientId } = plan
  const { sessions } = config
  const conversation = [...plan.messages]
  /** Sessions this turn runs, until each waits or ends: a turn that does not finish stops them. */
  const running = new Set<string>(plan.resumed.map(({ call }) => call.id))
  const usage = { inputTokens: 0, outputTokens: 0 }
  let text = ''
  let finished = false

  const toolMessage = (call: ToolCall, content: string) => conversation.push({ role: 'tool', tool_call_id: call.id, content })

  function settle(call: ToolCall, outcome: DriveOutcome): Waiting | undefined {
    trace?.settleTool(call.id, outcome)
    const name = call.function.name
    switch (outcome.kind) {
      case 'waiting':
        return { call, request: outcome.request }
      case 'completed':
        toolMessage(call, outcome.content)
        emit({ type: 'tool_result', id: call.id, name, content: outcome.content })
        return undefined
      case 'failed':
      case 'aborted': {
        const message = outcome.kind === 'failed' ? outcome.message : outcome.reason
        toolMessage(call, `Error: ${message}`)
        emit({ type: 'tool_error', id: call.id, name, message })
        return undefined
      }
    }
  }

  function* drive(started: Array<{ call: ToolCall; session: LiveSession }>): Operation<Waiting[]> {
    // One session (the usual case) is driven here; several at once, each in its own task.
    const outcomes =
      started.length === 1
        ? [yield* driveSession({ session: started[0]!.session, sessions, emit })]
        : yield* all(started.map(({ session }) => driveSession({ session, sessions, emit })))
    return started.flatMap(({ call }, index) => {
      running.delete(call.id)
      return settle(call, outcomes[index]!) ?? []
    })
  }

  /** Announce the calls (with where external ones go) and start each as a session; refusals get a tool error. */
  function* startCalls(entries: Array<{ call: ToolCall; input: unknown }>): Operation<Array<{ call: ToolCall; session: LiveSession }>> {
    emit({
      type: 'tool_calls',
      calls: entries.map(({ call, input }) => {
        const external = config.tools.originOf(call.function.name, clientId)
        const title = callTitleOf(config.tools.get(call.function.name, clientId), input)
        return { id: call.id, name: call.function.name, arguments: input, ...(title ? { title } : {}), ...(external ? { external } : {}) }
      }),
    })
    const started: Array<{ call: ToolCall; session: LiveSession }> = []
    const parentMessages = toolContextOf({ conversation, maxBytes: config.maxToolContextBytes })
    for (const [index, { call, input }] of entries.entries()) {
      // An app-only tool is not the model's to start, whatever name it gives.
      // Nor is a tool of a server that is not the person's (as if there were none: the model was never offered it).
      const availability = config.tools.availabilityOf(call.function.name, { clientId, person: plan.person })
      const tool = availability === 'available' ? config.tools.get(call.function.name, clientId) : undefined
      if (index >= config.maxToolCallsPerStep) {
        const message = `Not run: at most ${config.maxToolCallsPerStep} tool calls are run per model step. Ask for the rest in a later step.`
        toolMessage(call, `Error: ${message}`)
        emit({ type: 'tool_error', id: call.id, name: call.function.name, message })
        continue
      }
      if (!tool) {
        const message =
          availability === 'app-only'
            ? `The tool "${call.function.name}" is not available: it is only for its MCP App.`
            : `There is no tool named "${call.function.name}".`
        toolMessage(call, `Error: ${message}`)
        emit({ type: 'tool_error', id: call.id, name: call.function.name, message })
        continue
      }
      const starts = config.toolStarts?.take(plan.address)
      if (starts && !starts.allowed) {
        const message = `The tool could not start: too many tools were started from your address just now. Try again in ${Math.ceil(starts.retryAfterSeconds)} s.`
        toolMessage(call, `Error: ${message}`)
        emit({ type: 'tool_error', id: call.id, name: call.function.name, message })
        continue
      }
      let session: LiveSession
      try {
        session = yield* sessions.start({ tool, params: input, callId: call.id, clientId, parentMessages, span: trace?.startTool(call) })
      } catch (error) {
        const reason = error instanceof SessionLimitError ? error.message : toChatFailure(error)?.message
        if (reason === undefined) throw error
        // The call gets a result the model can read, so the conversation stays whole.
        const message = `The tool could not start: ${reason}`
        trace?.dropTool(call.id, message)
        toolMessage(call, `Error: ${message}`)
        emit({ type: 'tool_error', id: call.id, name: call.function.name, message })
        continue
      }
      running.add(call.id)
      started.push({ call, session })
    }
    return started
  }

  function askUser(waiting: Waiting[]) {
    for (const { request } of waiting) emit({ type: 'plugin_elicit_request', ...request.question })
  }

  try {
    // The calls the person moved on from: each stopped (and the stop announced), then told as it
    // ended — stopped now, or earlier (an operator's End, its idle time-out) — so that the chat
    // keeping this turn has its call closed, and reads it as it ended without asking again.
    for (const call of plan.interruptedCalls) {
      yield* sessions.abort(clientId, call.id, MOVED_ON_REASON)
      const stands = callStandingOf(call.id, yield* sessions.load(clientId, call.id))
      if (stands.kind === 'ended') emit(stands.event)
    }
    if (plan.abort) {
      const { call, reason } = plan.abort
      yield* sessions.abort(clientId, call.id, reason)
      toolMessage(call, `Error: ${reason}`)
      emit({ type: 'tool_error', id: call.id, name: call.function.name, message: reason })
    }
    for (const { call, error, message } of plan.lost) {
      emit({ type: 'plugin_session_error', sessionId: call.id, callId: call.id, error, message })
      toolMessage(call, LOST_SESSION_MESSAGE)
    }
    for (const { call, outcome } of plan.finished) settle(call, outcome)
    for (const { call, elicitId, message, issues } of plan.rejected) {
      emit({ type: 'plugin_elicit_rejected', sessionId: call.id, elicitId, message, issues })
    }

    const stillWaiting = [...plan.waiting, ...plan.rejected].map(({ call, request }) => ({ call, request }))
    let waiting = [...(yield* drive(plan.resumed)), ...stillWaiting]

    if (plan.direct) {
      // A slash command: its call is made as the model would make it, and the model is not asked.
      const { name, arguments: input } = plan.direct
      const call: ToolCall = { id: directCallId(config.callIds, clientId), type: 'function', function: { name, arguments: JSON.stringify(input) } }
      conversation.push({ role: 'assistant', content: null, tool_calls: [call] })
      waiting = [...waiting, ...(yield* drive(yield* startCalls([{ call, input }])))]
    }

    if (waiting.length === 0 && !plan.abort && !plan.direct && !endsWithDirectCalls(plan.messages)) {
      for (let iteration = 0; ; iteration++) {
        if (iteration === config.maxIterations) {
          throw new TurnError('iteration_limit', `Stopped after ${config.maxIterations} model calls in one turn.`)
        }
        const traced = trace?.modelCall()
        let step: ModelStepResult
        let calls: ToolCall[]
        try {
          step = yield* streamModelStep({
            model: config.model,
            system: withAppContext(config.systemPrompt, plan.appContext),
            messages: conversation,
            tools: config.tools.forModel({ clientId, person: plan.person }),
            maxOutputTokens: config.maxOutputTokens,
            timeoutMs: config.modelTimeoutMs,
            emit,
            observe: config.observeModelCall,
          })
          // The calls' ids are issued before the span is told of them: its output, the next call's input and each
          // `execute_tool` span then name a call by the same id.
          calls = step.toolCalls.map(({ id, name, input }) => ({
            id: config.callIds.issue(id, clientId),
            type: 'function',
            function: { name, arguments: JSON.stringify(input ?? {}) },
          }))
          traced?.({ step, callIds: calls.map((call) => call.id), messages: () => conversation })
        } catch (error) {
          traced?.({ error })
          throw error
        } finally {
          // Halted during the call (a Stop): its span ends too.
          traced?.({})
        }
        text += step.text
        usage.inputTokens += step.usage.inputTokens
        usage.outputTokens += step.usage.outputTokens
        if (config.budget) yield* config.budget.spend(clientId, step.usage.inputTokens + step.usage.outputTokens)
        if (step.toolCalls.length === 0) {
          conversation.push({ role: 'assistant', content: step.text })
          break
        }
        conversation.push({ role: 'assistant', content: step.text || null, tool_calls: calls })
        waiting = yield* drive(yield* startCalls(calls.map((call, index) => ({ call, input: step.toolCalls[index]!.input }))))
        if (waiting.length > 0) break
      }
    }

    askUser(waiting)
    finished = true
    emit({ type: 'conversation_state', messages: config.signer.sign(conversation) })
    emit({ type: 'complete', text, usage })
  } catch (error) {
    if (error instanceof TurnError) emit({ type: 'error', code: error.code, message: error.message })
    else if (error instanceof ModelTimeoutError) emit({ type: 'error', code: 'model_timeout', message: error.message })
    else {
      const failure = toChatFailure(error)
      emit(failure ? { type: 'error', code: failure.code, message: failure.message } : { type: 'error', code: 'turn_failed', message: describeFailure(error) })
    }
    emit({ type: 'conversation_state', messages: config.signer.sign(conversation) })
  } finally {
    // A turn that does not finish (Stop, a dropped connection, a failure) ends its tools' work.
    if (!finished) for (const id of running) yield* sessions.abort(clientId, id, 'The turn was stopped before it finished.')
  }
}

/**
 * The id of a slash command's call: an id the call-id issuer gives, behind `direct.` — the
 * issuer keeps only `[A-Za-z0-9_-]` of a model's ids, so no model call ever starts so.
 */
function directCallId(callIds: CallIdIssuer, clientId: string): string {
  return `direct.${callIds.issue('call', clientId)}`
}

/**
 * Whether the conversation ends with the results of a slash command's calls (answered in this
 * turn): the turn then ends with them, as the command's first turn would have, without the model.
 */
function endsWithDirectCalls(messages: readonly Message[]): boolean {
  if (messages.at(-1)?.role === 'user') return false
  const assistant = messages.findLast((message) => message.role === 'assistant')
  return assistant?.tool_calls?.length ? assistant.tool_calls.every((call) => call.id.startsWith('direct.')) : false
}

class TurnError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return `The assistant could not answer: ${message.slice(0, 500)}`
}
