import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider'
import type { ModelMessage } from 'ai'

/**
 * The prompt a `LanguageModelV3` takes, from the system prompt and the messages the engine
 * builds (text, tool calls and text tool results; see `toModelMessages`). What `streamText`
 * would make of them, without re-validating messages we built ourselves: that validation
 * (a Zod parse of the whole conversation on every call) was the largest single cost of a
 * model call in a CPU profile. A part the engine never builds (an image, a file) is refused.
 */
export function toModelPrompt({ system, messages }: { system?: string; messages: readonly ModelMessage[] }): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = []
  if (system) prompt.push({ role: 'system', content: system })
  for (const message of messages) prompt.push(toPromptMessage(message))
  return prompt
}

function toPromptMessage(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content }
    case 'user':
      if (typeof message.content === 'string') return { role: 'user', content: [{ type: 'text', text: message.content }] }
      return {
        role: 'user',
        content: message.content.map((part) => {
          if (part.type !== 'text') throw new Error(`A ${part.type} part in a user message is not supported.`)
          return { type: 'text', text: part.text }
        }),
      }
    case 'assistant':
      if (typeof message.content === 'string') return { role: 'assistant', content: message.content ? [{ type: 'text', text: message.content }] : [] }
      return {
        role: 'assistant',
        content: message.content.map((part) => {
          if (part.type === 'text') return { type: 'text', text: part.text }
          if (part.type === 'tool-call') return { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }
          throw new Error(`A ${part.type} part in an assistant message is not supported.`)
        }),
      }
    case 'tool':
      return {
        role: 'tool',
        content: message.content.map((part) => {
          if (part.type !== 'tool-result' || part.output.type !== 'text') throw new Error('Only text tool results are supported.')
          return { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: { type: 'text', value: part.output.value } }
        }),
      }
  }
}
