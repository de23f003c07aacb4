import type { ModelMessage } from 'ai'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { Message } from '../protocol/messages'

/** The wire conversation as tools see it (`ctx.parentMessages`): arguments as objects. */
export function toExtendedMessages(messages: readonly Message[]): ExtendedMessage[] {
  return messages.map((message): ExtendedMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content ?? '' }
      case 'assistant':
        if (!message.tool_calls?.length) return { role: 'assistant', content: message.content ?? '' }
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: message.tool_calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: parseArguments(call.function.arguments) },
          })),
        }
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id ?? '', content: message.content ?? '' }
    }
  })
}

/**
 * Messages as the AI SDK takes them: real tool-call and tool-result parts, never a tool call
 * flattened into text. Used for the chat's turns and for `ctx.sample({ messages })`.
 */
export function toModelMessages(messages: readonly ExtendedMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>()
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content }
      case 'assistant': {
        if (!('tool_calls' in message) || !message.tool_calls.length) return { role: 'assistant', content: message.content ?? '' }
        for (const call of message.tool_calls) toolNames.set(call.id, call.function.name)
        return {
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...message.tool_calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.function.name,
              input: call.function.arguments,
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
              toolCallId: message.tool_call_id,
              toolName: toolNames.get(message.tool_call_id) ?? 'unknown',
              output: { type: 'text', value: message.content },
            },
          ],
        }
    }
  })
}

/** A tool call's arguments as an object; anything else (bad JSON, an array) is `{}`. */
export function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}')
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
