import type { LanguageModelV3Message } from '@ai-sdk/provider'

/** What each of the offline model's skills is given to decide whether a call is about it. */
export interface OfflineCall {
  prompt: LanguageModelV3Message[]
  /** The function tools on offer; none on a sampling call. */
  toolNames: ReadonlySet<string>
  /** False when the call forbids tool calls (`toolChoice: none`). */
  canCallTools: boolean
}

/** The text of a user message; '' for any other role. */
export function userText(message: LanguageModelV3Message): string {
  if (message.role !== 'user') return ''
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
}

/** The text of the last user message in the prompt, or ''. */
export function lastUserText(prompt: LanguageModelV3Message[]): string {
  const message = prompt.findLast((candidate) => candidate.role === 'user')
  return message ? userText(message) : ''
}
