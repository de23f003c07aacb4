import type { CreateMessageRequestParams, CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/server'
import type { ToolSampleRequest } from '../../runtime/tool-client'
import type { ExtendedMessage } from '../../tools/sample-messages'

const DEFAULT_MAX_TOKENS = 1000

/**
 * `ctx.sample` as an MCP sampling request. MCP messages carry text for users and assistants
 * only: a tool call and its result become text the model can read. A structured request asks
 * for JSON in the system prompt; the runtime parses and validates the answer as it does the
 * app's own model's.
 */
export function toSamplingRequest(request: ToolSampleRequest): CreateMessageRequestParams {
  const schemaNote = request.schema
    ? `Reply with only a JSON value that follows this JSON Schema:\n${JSON.stringify(request.schema)}`
    : undefined
  const system = [request.system, schemaNote].filter(Boolean).join('\n\n')
  return {
    messages: request.messages.flatMap(toSamplingMessage),
    ...(system ? { systemPrompt: system } : {}),
    maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
  }
}

function toSamplingMessage(message: ExtendedMessage): CreateMessageRequestParams['messages'] {
  const text = (value: string) => ({ type: 'text' as const, text: value })
  switch (message.role) {
    case 'system':
    case 'user':
      return message.content ? [{ role: 'user', content: text(message.content) }] : []
    case 'assistant': {
      const calls = ('tool_calls' in message ? message.tool_calls : []).map((call) => `[asked ${call.function.name} ${call.function.arguments}]`)
      const parts = [message.content ?? '', ...calls].filter(Boolean)
      return parts.length ? [{ role: 'assistant', content: text(parts.join('\n')) }] : []
    }
    case 'tool':
      return [{ role: 'user', content: text(`[answer to ${message.tool_call_id}] ${message.content ?? ''}`) }]
  }
}

/** The text of a client's sampling answer (text blocks joined; other content is not text). */
export function samplingText(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content]
  return blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
}
