import type { Operation } from 'effection'
import type { PendingQuestion } from '../runtime/pending-question'
import { parseElicitId } from '../tools/elicit-id'
import type { LoadedSession, PluginSessionManager, TakenSession } from '../sessions'
import { analyzeConversation } from './conversation'
import type { ConversationSigner } from './conversation-signature'
import { ChatRequestError } from '../http/errors'
import type { ToolAvailability } from './tool-registry'
import type { SessionErrorCode, ValidationIssue } from '../protocol/events'
import type { Message, ToolCall } from '../protocol/messages'
import type { AppContext, ChatRequest, DirectToolCall, PluginElicitResponse } from '../protocol/request-schema'

/** What a turn will do, decided (and every refusal made) before the first byte streams. */
export interface TurnPlan {
  clientId: string
  /** The client address the request came from (the rate limiter's key). */
  address: string
  messages: Message[]
  interruptedCalls: ToolCall[]
  abort?: { call: ToolCall; reason: string }
  /** Sessions this request took: answered now, or taken over from a process that stopped. */
  taken: Array<{ call: ToolCall; session: TakenSession }>
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

type Waiting = Extract<LoadedSession, { kind: 'waiting' }>

/**
 * Check a request against the contract and the sessions it names, and take the sessions it
 * answers: each answer is recorded with a compare-and-set, so of two deliveries of the same
 * answer (to two instances, at the same moment) one is refused here, before streaming.
 */
export interface PrepareTurnOptions {
  request: ChatRequest
  clientId: string
  address: string
  sessions: PluginSessionManager
  /** Checks that every assistant and tool message is one this server produced. */
  signer: ConversationSigner
  /** Whether a slash command may start a tool of this name: it exists and is not only for its app. */
  availabilityOf(name: string): ToolAvailability
}

export function* prepareTurn({ request, clientId, address, sessions, signer, availabilityOf }: PrepareTurnOptions): Operation<TurnPlan> {
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
    address,
    messages,
    interruptedCalls,
    taken: [],
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
    const availability = availabilityOf(request.directToolCall.name)
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

  const responses = new Map<string, PluginElicitResponse>()
  for (const [index, response] of (request.pluginElicitResponses ?? []).entries()) {
    const field = `pluginElicitResponses.${index}`
    pendingCall(response.sessionId, field)
    if (response.callId !== response.sessionId) {
      throw new ChatRequestError('unknown_tool_call', `${field}: callId must equal sessionId (both are the tool call id).`)
    }
    if (responses.has(response.sessionId) || turn.abort?.call.id === response.sessionId) {
      throw new ChatRequestError('duplicate_response', `${field}: session "${response.sessionId}" is answered or aborted twice.`)
    }
    responses.set(response.sessionId, response)
  }

  const answered: Array<{ call: ToolCall; loaded: Waiting; response: PluginElicitResponse; checked: PluginElicitResponse['result'] }> = []
  const abandoned: Array<{ call: ToolCall; loaded: Extract<LoadedSession, { kind: 'running' }> }> = []
  for (const call of pendingCalls) {
    if (call.id === turn.abort?.call.id) continue
    const response = responses.get(call.id)
    const loaded = yield* sessions.load(clientId, call.id, { answering: response?.elicitId })
    switch (loaded.kind) {
      case 'missing':
        turn.lost.push({ call, error: 'SESSION_NOT_FOUND', message: `No session for tool call ${call.id}: it ended, or expired.` })
        continue
      case 'broken':
        turn.lost.push({ call, error: 'INTERNAL_ERROR', message: loaded.message })
        continue
      case 'ended': {
        if (response && wasAnswered(loaded.stored.record.journal, response.elicitId)) {
          throw new ChatRequestError('elicit_already_answered', `Elicitation ${response.elicitId} was already answered.`)
        }
        const { ending } = loaded
        if (ending.kind === 'aborted') turn.lost.push({ call, error: 'SESSION_ABORTED', message: ending.reason })
        else turn.finished.push({ call, outcome: ending })
        continue
      }
      case 'running':
        if (response) {
          throw wasAnswered(loaded.stored.record.journal, response.elicitId)
            ? new ChatRequestError('elicit_already_answered', `Elicitation ${response.elicitId} was already answered.`)
            : new ChatRequestError('session_not_waiting', `Tool call ${call.id} is not waiting for an answer: it is working in another request.`)
        }
        if (!loaded.abandoned) {
          throw new ChatRequestError('session_not_waiting', `Tool call ${call.id} is still working in another request.`)
        }
        abandoned.push({ call, loaded })
        continue
      case 'waiting': {
        if (!response) {
          turn.waiting.push({ call, request: loaded.request })
          continue
        }
        const outcome = loaded.request.check(response.elicitId, response.result)
        if (outcome.ok) answered.push({ call, loaded, response, checked: outcome.answer })
        else if (outcome.code === 'invalid_response') {
          turn.rejected.push({ call, request: loaded.request, elicitId: response.elicitId, message: outcome.message, issues: outcome.issues })
        } else throw new ChatRequestError(outcome.code, outcome.message)
      }
    }
  }

  // Every refusal is made; now take the sessions (an invalid answer leaves its session waiting).
  for (const { call, loaded, response, checked } of answered) {
    const session = yield* sessions.take(loaded, { raw: response.result, checked })
    if (session) {
      turn.taken.push({ call, session })
      continue
    }
    // Read from this process's memory, and the store moved on: stopped or expired elsewhere, say so.
    const now = loaded.cached ? yield* sessions.load(clientId, call.id) : undefined
    if (now?.kind === 'ended' && now.ending.kind === 'aborted' && !wasAnswered(now.stored.record.journal, response.elicitId)) {
      turn.lost.push({ call, error: 'SESSION_ABORTED', message: now.ending.reason })
      continue
    }
    throw new ChatRequestError('elicit_already_answered', `Elicitation ${response.elicitId} was answered by another request at the same moment.`)
  }
  for (const { call, loaded } of abandoned) {
    const session = yield* sessions.takeOver(loaded)
    if (!session) throw new ChatRequestError('session_not_waiting', `Tool call ${call.id} was just continued by another request.`)
    turn.taken.push({ call, session })
  }
  return turn
}

function wasAnswered(journal: ReadonlyArray<{ kind: string; seq: number }>, elicitId: string): boolean {
  const id = parseElicitId(elicitId)
  return id !== undefined && journal.some((entry) => entry.kind === 'elicit' && entry.seq === id.seq)
}
