import { ChatRequestError } from '../http/errors'
import type { ValidationIssue } from '../protocol/events'
import type { Message, ToolCall } from '../protocol/messages'

export const INTERRUPTED_MESSAGE = 'Error: The user moved on before this tool finished; it was stopped.'

export interface ConversationAnalysis {
  /** The conversation, with a result added for every tool call the user moved on from. */
  messages: Message[]
  /** Tool calls of the last assistant message still waiting for their results. */
  pendingCalls: ToolCall[]
  /** Tool calls left without a result before a later message; their sessions should end. */
  interruptedCalls: ToolCall[]
}

/**
 * Check that the conversation is one a model can continue, and find the tool calls that
 * still wait for a result.
 */
export function analyzeConversation(messages: Message[]): ConversationAnalysis {
  const issues: ValidationIssue[] = []
  const calls = new Map<string, { call: ToolCall; assistantIndex: number }>()
  const answered = new Set<string>()
  /** The assistant message whose results may follow now: only tool messages come between them. */
  let resultsOf: number | undefined

  messages.forEach((message, index) => {
    const path = `messages.${index}`
    if (message.role === 'system') {
      issues.push({ path, message: 'Clients cannot send system messages: the server sets the system prompt.' })
    }
    if (message.role === 'assistant') {
      if (message.content === null && !message.tool_calls?.length) {
        issues.push({ path, message: 'An assistant message needs content or tool_calls.' })
      }
      // Every call of an earlier assistant message has its result, unless the user moved on since.
      if (resultsOf !== undefined) {
        for (const call of messages[resultsOf]!.tool_calls ?? []) {
          if (!answered.has(call.id)) issues.push({ path, message: `Tool call "${call.id}" has no result before this assistant message.` })
        }
      }
      for (const call of message.tool_calls ?? []) {
        if (calls.has(call.id)) issues.push({ path, message: `Tool call id "${call.id}" is used twice.` })
        calls.set(call.id, { call, assistantIndex: index })
      }
      resultsOf = message.tool_calls?.length ? index : undefined
    } else if (message.tool_calls?.length) {
      issues.push({ path, message: 'Only assistant messages can carry tool_calls.' })
    }
    if (message.role === 'tool') {
      const id = message.tool_call_id
      if (!id) issues.push({ path, message: 'A tool message needs tool_call_id.' })
      else if (!calls.has(id)) issues.push({ path, message: `Tool message answers unknown tool call "${id}".` })
      else if (answered.has(id)) issues.push({ path, message: `Tool call "${id}" already has a result.` })
      else if (calls.get(id)!.assistantIndex !== resultsOf) {
        issues.push({ path, message: `The result of tool call "${id}" must come right after the assistant message that made the call.` })
      } else answered.add(id)
    } else if (message.tool_call_id !== undefined) {
      issues.push({ path, message: 'Only tool messages can carry tool_call_id.' })
    }
    if (message.role === 'user') {
      if (message.content === null) issues.push({ path, message: 'A user message needs content.' })
      resultsOf = undefined
    }
  })
  if (issues.length > 0) {
    throw new ChatRequestError('invalid_conversation', 'The conversation is not well formed.', issues)
  }

  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant')
  const movedOn = (assistantIndex: number) => messages.slice(assistantIndex + 1).some((message) => message.role === 'user')

  const pendingCalls: ToolCall[] = []
  const interruptedCalls: ToolCall[] = []
  for (const [id, { call, assistantIndex }] of calls) {
    if (answered.has(id)) continue
    if (assistantIndex === lastAssistant && !movedOn(assistantIndex)) pendingCalls.push(call)
    else interruptedCalls.push(call)
  }

  return { messages: repair(messages, interruptedCalls), pendingCalls, interruptedCalls }
}

/** Give each interrupted call a result right after its assistant message's other results. */
function repair(messages: Message[], interrupted: ToolCall[]): Message[] {
  if (interrupted.length === 0) return messages
  const missing = new Set(interrupted.map((call) => call.id))
  const repaired: Message[] = []
  let owner: Message | undefined
  const flush = () => {
    for (const call of owner?.tool_calls ?? []) {
      if (missing.delete(call.id)) repaired.push({ role: 'tool', tool_call_id: call.id, content: INTERRUPTED_MESSAGE })
    }
  }
  for (const message of messages) {
    if (message.role !== 'tool') {
      flush()
      if (message.role === 'assistant') owner = message
    }
    repaired.push(message)
  }
  flush()
  return repaired
}
