import type { LanguageModelV3Message } from '@ai-sdk/provider'
import { MAX_READ_CHARS } from './offline-skill'

/** The text of a user message, at most `MAX_READ_CHARS`; '' for any other role. */
export function userText(message: LanguageModelV3Message): string {
  if (message.role !== 'user') return ''
  let text = ''
  for (const part of message.content) {
    if (part.type !== 'text') continue
    text += (text ? '\n' : '') + part.text.slice(0, MAX_READ_CHARS - text.length)
    if (text.length >= MAX_READ_CHARS) break
  }
  return text.slice(0, MAX_READ_CHARS)
}

/** The text of the last user message in the prompt (at most `MAX_READ_CHARS`), or ''. */
export function lastUserText(prompt: LanguageModelV3Message[]): string {
  const message = prompt.findLast((candidate) => candidate.role === 'user')
  return message ? userText(message) : ''
}

/** The system messages of the prompt, joined, at most `MAX_READ_CHARS`. */
export function systemText(prompt: LanguageModelV3Message[]): string {
  return prompt
    .flatMap((message) => (message.role === 'system' ? [message.content.slice(0, MAX_READ_CHARS)] : []))
    .join('\n')
    .slice(0, MAX_READ_CHARS)
}

/** Whether an assistant message of the conversation called the tool. */
export function hasCalledTool(prompt: LanguageModelV3Message[], toolName: string): boolean {
  return prompt.some(
    (message) => message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call' && part.toolName === toolName),
  )
}

/** Whether the text opens with a greeting. */
export function isGreeting(text: string): boolean {
  return /^\s*(?:hi|hello|hey|howdy|hiya|greetings|yo|good (?:morning|afternoon|evening))\b/i.test(text)
}
