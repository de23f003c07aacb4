import type { AssistantToolCallMessage, ToolResultMessage } from './sample-messages'
import type { ElicitExchange } from './types'

/** The id of the tool call an elicitation becomes: unique per tool call and ctx call. */
export function exchangeCallId(callId: string, seq: number): string {
  return `elicit_${callId}_${seq}`
}

/**
 * An accepted elicitation as a tool-call pair: the assistant "called" the elicit key, the
 * user's answer is the result. Arguments stay empty unless the tool chooses them with
 * `withArguments`, so nothing from the context reaches a prompt by accident.
 */
export function createElicitExchange<TContext, TResponse>({
  callId,
  seq,
  key,
  context,
  content,
}: {
  callId: string
  seq: number
  key: string
  context: TContext
  content: TResponse
}): ElicitExchange<TContext, TResponse> {
  const id = exchangeCallId(callId, seq)
  const response: ToolResultMessage = { role: 'tool', tool_call_id: id, content: JSON.stringify(content ?? null) }
  const requestWith = (args: Record<string, unknown>): AssistantToolCallMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: key, arguments: args } }],
  })
  const request = requestWith({})
  return {
    context,
    request,
    response,
    get messages(): [AssistantToolCallMessage, ToolResultMessage] {
      return [requestWith({}), { ...response }]
    },
    withArguments(fn) {
      return [requestWith(fn(context)), { ...response }]
    },
  }
}
