import type { Operation } from 'effection'
import type { PendingQuestion } from '../runtime/pending-question'
import { settledOutcome, type LiveSession, type LoadedSession, type PluginSessionManager, type SessionAnswer, type SpanRef, type ToolResume } from '../sessions'
import { analyzeConversation } from './conversation'
import type { ConversationSigner } from './conversation-signature'
import { ChatRequestError } from '../http/errors'
import type { Person } from '../http/people-list'
import type { ToolAsker, ToolAvailability } from './tool-registry'
import { toolContextOf } from './tool-context'
import type { SessionErrorCode, ValidationIssue } from '../protocol/events'
import type { Message, ToolCall } from '../protocol/messages'
import type { AppContext, ChatRequest, DirectToolCall } from '../protocol/request-schema'
import { readElicitId } from '../protocol/elicit-id'
import type { Budget } from '../budgets/budget'
import { answerMetricOutcomes, type AnswerMetricOutcome } from './answer-metric'

/** What a turn will do, decided (and every refusal made) before the first byte streams. */
export interface TurnPlan {
  clientId: string
  /** With sign-in, the person asking: which external servers' tools the model is offered and may start. */
  person?: Person
  /** The client address the request came from (the rate limiter's key). */
  address: string
  messages: Message[]
  interruptedCalls: ToolCall[]
  abort?: { call: ToolCall; reason: string }
  /** Sessions this request runs on: answered now, or taken over from a process that stopped. */
  resumed: Array<{ call: ToolCall; session: LiveSession }>
  rejected: Array<{ call: ToolCall; request: PendingQuestion; elicitId: string; message: string; issues: ValidationIssue[] }>
  /** Pending calls nobody answered this time whose sessions still wait. */
  waiting: Array<{ call: ToolCall; request: PendingQuestion }>
  /** Pending calls whose sessions ended without this client hearing of it: their results now. */
  finished: Array<{ call: ToolCall; outcome: { kind: 'completed'; content: string } | { kind: 'failed'; message: string } }>
  lost: Array<{ call: ToolCall; error: SessionErrorCode; message: string }>
  /** A slash command: this tool is called with these arguments instead of asking the model. */
  direct?: DirectToolCall
  /** What the chat's MCP Apps last told the model (`ui/update-model-context`); shown to it this turn. */
  appContext: AppContext[]
}

/**
 * Check a request against the contract and the sessions it names, and hand its answers to the
 * sessions (`PluginSessionManager.answer`): each is recorded with a compare-and-set, so of two
 * deliveries of the same answer (to two instances, at the same moment) one is refused here,
 * before streaming.
 */
export interface PrepareTurnOptions {
  request: ChatRequest
  clientId: string
  /** With sign-in, the signed-in person (`ClientIdentity.person`); undefined without. */
  person?: Person
  address: string
  sessions: PluginSessionManager
  /** Checks that every assistant and tool message is one this server produced. */
  signer: ConversationSigner
  /** Whether a slash command may start a tool of this name: it exists, is not only for its app, and is the person's to use. */
  availabilityOf(name: string, asker?: ToolAsker): ToolAvailability
  /** The most of the conversation a resumed tool keeps as `ctx.parentMessages` (see `toolContextOf`). */
  maxToolContextBytes: number
  /** Told what became of each answer (the server's `elicit_answers_total`). */
  observeAnswer?: (outcome: AnswerMetricOutcome) => void
  /** Traces on: the span of each answered tool call that goes on (`PluginSessionManager.answer`). */
  traceResume?(resume: ToolResume): SpanRef
}

/**
 * A new message for the model is refused (429 `budget_exhausted`) once its client's model budget
 * is spent, before the model is called. Work in progress — answers, a Stop, the results a
 * conversation waits for — and a slash command (the model is not asked) go on. The chat server
 * calls it first, before `prepareTurn` and before it records a turn in a kept chat, so that a
 * refused message is not kept (the composer keeps its text instead).
 */
export function* refuseWhenBudgetSpent({
  request,
  clientId,
  budget,
}: {
  request: ChatRequest
  clientId: string
  budget: Budget
}): Operation<void> {
  if (request.directToolCall || request.pluginAbort || request.pluginElicitResponses?.length) return
  if (request.messages.at(-1)?.role !== 'user') return
  yield* budget.check(clientId)
}

/** The refusal of a slash command or an answer that names an external server's tool the person may not use. */
function notAllowed(name: string): ChatRequestError {
  return new ChatRequestError('tool_not_allowed', `The tool "${name}" is not yours to use: its MCP server is for the people its entry in mcp.json names (ask an admin).`)
}

export function* prepareTurn({ request, clientId, person, address, sessions, signer, availabilityOf, maxToolContextBytes, observeAnswer, traceResume }: PrepareTurnOptions): Operation<TurnPlan> {
  if (request.messages.length === 0) {
    throw new ChatRequestError('invalid_conversation', 'messages must contain at least one message.')
  }
  const { messages, pendingCalls, interruptedCalls } = analyzeConversation(request.messages)
  if (pendingCalls.length === 0 && messages.at(-1)!.role === 'assistant') {
    throw new ChatRequestError('invalid_conversation', 'The conversation ends with an assistant message; add a user message.')
  }
  // After the shape (a system message or a wrong order is named as such), before any session is touched.
  signer.verify(request.messages)
  const pendingById = new Map(pendingCalls.map((call) => [call.id, call]))
  const pendingCall = (sessionId: string, field: string) => {
    const call = pendingById.get(sessionId)
    if (!call) {
      throw new ChatRequestError(
        'unknown_tool_call',
        `${field} names session "${sessionId}", which is not a tool call waiting for its result in messages.`,
      )
    }
    return call
  }

  const turn: TurnPlan = {
    clientId,
    ...(person ? { person } : {}),
    address,
    messages,
    interruptedCalls,
    resumed: [],
    rejected: [],
    waiting: [],
    finished: [],
    lost: [],
    appContext: request.appContext ?? [],
  }
  if (request.directToolCall) {
    if (messages.at(-1)!.role !== 'user' || request.pluginAbort || request.pluginElicitResponses?.length) {
      throw new ChatRequestError('invalid_request', 'directToolCall goes with a new user message only (no answers, no abort).')
    }
    const availability = availabilityOf(request.directToolCall.name, { clientId, person })
    if (availability === 'not-allowed') throw notAllowed(request.directToolCall.name)
    if (availability === 'unknown') {
      throw new ChatRequestError('unknown_tool', `There is no tool named "${request.directToolCall.name}". Type / in the composer to see the tools.`)
    }
    if (availability === 'app-only') {
      throw new ChatRequestError(
        'app_only_tool',
        `The tool "${request.directToolCall.name}" is only for its MCP App: its server does not let the model or a slash command call it.`,
      )
    }
    turn.direct = request.directToolCall
  }
  if (request.pluginAbort) {
    const call = pendingCall(request.pluginAbort.sessionId, 'pluginAbort')
    turn.abort = { call, reason: request.pluginAbort.reason ?? 'Stopped by the user.' }
  }

  // Each answer's elicit id is read here, once, where it arrives; the sessions and the question compare its parts.
  const responses = new Map<string, SessionAnswer>()
  for (const [index, response] of (request.pluginElicitResponses ?? []).entries()) {
    const field = `pluginElicitResponses.${index}`
    const call = pendingCall(response.sessionId, field)
    // An answer (an approval too) carries a call on: not for a tool whose server is not the person's.
    if (availabilityOf(call.function.name, { clientId, person }) === 'not-allowed') throw notAllowed(call.function.name)
    if (response.callId !== response.sessionId) {
      throw new ChatRequestError('unknown_tool_call', `${field}: callId must equal sessionId (both are the tool call id).`)
    }
    if (responses.has(response.sessionId) || turn.abort?.call.id === response.sessionId) {
      throw new ChatRequestError('duplicate_response', `${field}: session "${response.sessionId}" is answered or aborted twice.`)
    }
    responses.set(response.sessionId, { callId: response.callId, elicitId: readElicitId(response.elicitId), result: response.result })
  }

  const abandoned: Array<{ call: ToolCall; loaded: Extract<LoadedSession, { kind: 'running' }> }> = []
  for (const call of pendingCalls) {
    if (call.id === turn.abort?.call.id || responses.has(call.id)) continue
    const loaded = yield* sessions.load(clientId, call.id)
    switch (loaded.kind) {
      case 'missing':
      case 'broken':
      case 'ended': {
        const settled = settledOutcome(call.id, loaded)
        if (settled.kind === 'lost') turn.lost.push({ call, error: settled.error, message: settled.message })
        else turn.finished.push({ call, outcome: settled.ending })
        continue
      }
      case 'running':
        if (!loaded.abandoned) {
          throw new ChatRequestError('session_not_waiting', `Tool call ${call.id} is still working in another request.`)
        }
        abandoned.push({ call, loaded })
        continue
      case 'waiting':
        turn.waiting.push({ call, request: loaded.request })
    }
  }

  // Every refusal but the answers' is made; the sessions check the answers, and record them only if they refuse none.
  if (responses.size > 0) {
    const answered = yield* sessions.answer({
      clientId,
      answers: [...responses.values()],
      parentMessages: (callId) => toolContextOf({ conversation: messages, callId, maxBytes: maxToolContextBytes }),
      traceResume,
    })
    if (observeAnswer) for (const outcome of answerMetricOutcomes(answered, responses.size)) observeAnswer(outcome)
    if (answered.kind === 'refused') throw new ChatRequestError(answered.code, answered.message)
    for (const outcome of answered.outcomes) {
      const call = pendingById.get(outcome.callId)!
      switch (outcome.kind) {
        case 'accepted':
          turn.resumed.push({ call, session: outcome.session })
          break
        case 'rejected':
          turn.rejected.push({ call, request: outcome.question, elicitId: responses.get(call.id)!.elicitId.text, message: outcome.message, issues: outcome.issues })
          break
        case 'ended':
          turn.finished.push({ call, outcome: outcome.ending })
          break
        case 'lost':
          turn.lost.push({ call, error: outcome.error, message: outcome.message })
      }
    }
  }
  for (const { call, loaded } of abandoned) {
    const taken = yield* sessions.takeOver({ loaded, parentMessages: toolContextOf({ conversation: messages, callId: call.id, maxBytes: maxToolContextBytes }) })
    if (!taken) throw new ChatRequestError('session_not_waiting', `Tool call ${call.id} was just continued by another request.`)
    if (taken.kind === 'lost') turn.lost.push({ call, error: taken.error, message: taken.message })
    else turn.resumed.push({ call, session: taken.session })
  }
  if (pendingCalls.length > 1) {
    // In the conversation's order, as each call's outcome is reported.
    const order = new Map(pendingCalls.map((call, index) => [call.id, index]))
    const byCall = (a: { call: ToolCall }, b: { call: ToolCall }) => order.get(a.call.id)! - order.get(b.call.id)!
    for (const list of [turn.resumed, turn.rejected, turn.waiting, turn.finished, turn.lost]) list.sort(byCall)
  }
  return turn
}
