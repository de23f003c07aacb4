/**
 * The messages a tool may hand to `ctx.sample({ messages })`: plain text messages plus the
 * tool-call pair an elicitation becomes (see `ElicitExchange`). Arguments are objects here;
 * the model layer turns them into real tool-call and tool-result messages.
 */

/** A text message. */
export interface SampleMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** One function call made by the assistant. */
export interface ToolCall {
  id: string
  type: 'function'
  function: {
    name: string
    arguments: Record<string, unknown>
  }
}

/** An assistant turn that called tools. */
export interface AssistantToolCallMessage {
  role: 'assistant'
  content: string | null
  tool_calls: ToolCall[]
}

/** The result of one tool call, answering `tool_call_id`. */
export interface ToolResultMessage {
  role: 'tool'
  tool_call_id: string
  content: string
}

export type ExtendedMessage = SampleMessage | AssistantToolCallMessage | ToolResultMessage
