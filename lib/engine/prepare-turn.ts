import type { Operation } from 'effection'
import type { PluginSession, PluginSessionManager } from '../sessions'
import type { ElicitAnswer } from '../tools/types'
import { analyzeConversation } from './conversation'
import { ChatRequestError } from './errors'
import type { SessionErrorCode, ValidationIssue } from '../protocol/events'
import type { Message, ToolCall } from '../protocol/messages'
import type { ChatRequest, PluginElicitResponse } from '../protocol/request-schema'

/** What a turn will do, decided (and every refusal made) before the first byte streams. */
export interface TurnPlan {
  clientId: string
  messages: Message[]
  interruptedCalls: ToolCall[]
  abort?: { call: ToolCall; reason: string }
  /** Sessions whose answers are valid; `resume()` hands the answers over. */
  answered: Array<{ call: ToolCall; session: PluginSession; result: ElicitAnswer<unknown> }>
  rejected: Array<{ call: ToolCall; session: PluginSession; elicitId: string; message: string; issues: ValidationIssue[] }>
  /** Pending calls nobody answered this time whose sessions still wait. */
  waiting: Array<{ call: ToolCall; session: PluginSession }>
  lost: Array<{ call: ToolCall; error: SessionErrorCode; message: string }>
}

export function* prepareTurn({
  request,
  clientId,
  sessions,
}: {
  request: ChatRequest
  clientId: string
  sessions: PluginSessionManager
}): Operation<TurnPlan> {
  if (request.messages.length === 0) {
    throw new ChatRequestError('invalid_conversation', 'messages must contain at least one message.')
  }
  const { messages, pendingCalls, interruptedCalls } = analyzeConversation(request.messages)
  if (pendingCalls.length === 0 && messages.at(-1)!.role === 'assistant') {
    throw new ChatRequestError('invalid_conversation', 'The conversation ends with an assistant message; add a user message.')
  }
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

  const plan: TurnPlan = { clientId, messages, interruptedCalls, answered: [], rejected: [], waiting: [], lost: [] }
  if (request.pluginAbort) {
    const call = pendingCall(request.pluginAbort.sessionId, 'pluginAbort')
    plan.abort = { call, reason: request.pluginAbort.reason ?? 'Stopped by the user.' }
  }

  const responses = new Map<string, PluginElicitResponse>()
  for (const [index, response] of (request.pluginElicitResponses ?? []).entries()) {
    const field = `pluginElicitResponses.${index}`
    pendingCall(response.sessionId, field)
    if (response.callId !== response.sessionId) {
      throw new ChatRequestError('unknown_tool_call', `${field}: callId must equal sessionId (both are the tool call id).`)
    }
    if (responses.has(response.sessionId) || plan.abort?.call.id === response.sessionId) {
      throw new ChatRequestError('duplicate_response', `${field}: session "${response.sessionId}" is answered or aborted twice.`)
    }
    responses.set(response.sessionId, response)
  }

  const checked: Array<{ call: ToolCall; session: PluginSession; response: PluginElicitResponse }> = []
  for (const call of pendingCalls) {
    if (call.id === plan.abort?.call.id) continue
    const session = yield* sessions.get(clientId, call.id)
    const response = responses.get(call.id)
    if (!session) {
      const ended = sessions.ended(clientId, call.id)
      plan.lost.push({
        call,
        error: ended ? 'SESSION_ABORTED' : 'SESSION_NOT_FOUND',
        message: ended?.reason ?? `No session for tool call ${call.id}: it ended, or the server restarted.`,
      })
      continue
    }
    if (!response) {
      if (session.status() !== 'awaiting_elicit') {
        throw new ChatRequestError('session_not_waiting', `Tool call ${call.id} is still working in another request.`)
      }
      plan.waiting.push({ call, session })
      continue
    }
    const outcome = session.checkResponse(response.elicitId, response.result)
    if (!outcome.ok && outcome.code !== 'invalid_response') throw new ChatRequestError(outcome.code, outcome.message)
    checked.push({ call, session, response })
  }

  // Every refusal is made; now hand over the answers (an invalid one leaves its session waiting).
  for (const { call, session, response } of checked) {
    const outcome = session.respondToElicit(response.elicitId, response.result)
    if (outcome.ok) plan.answered.push({ call, session, result: outcome.result })
    else if (outcome.code === 'invalid_response') {
      plan.rejected.push({ call, session, elicitId: response.elicitId, message: outcome.message, issues: outcome.issues })
    }
  }

  return plan
}
