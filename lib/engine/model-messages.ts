import type { ModelMessage } from 'ai'
import type { Message } from './messages'

/** The conversation as the AI SDK takes it: real tool-call and tool-result parts. */
export function toModelMessages(messages: Message[]): ModelMessage[] {
  const toolNames = new Map<string, string>()
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content ?? '' }
      case 'user':
        return { role: 'user', content: message.content ?? '' }
      case 'assistant': {
        if (!message.tool_calls?.length) return { role: 'assistant', content: message.content ?? '' }
        for (const call of message.tool_calls) toolNames.set(call.id, call.function.name)
        return {
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...message.tool_calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.function.name,
              input: parseArguments(call.function.arguments),
            })),
          ],
        }
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.tool_call_id ?? '',
              toolName: toolNames.get(message.tool_call_id ?? '') ?? 'unknown',
              output: { type: 'text', value: message.content ?? '' },
            },
          ],
        }
    }
  })
}

export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || '{}')
  } catch {
    return {}
  }
}
