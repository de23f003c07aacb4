import type { PluginElicitRequestEvent } from '../protocol/events'
import { describeAnswer } from '../protocol/question-form'
import type { Chat, ChatTurn } from './chat'

/**
 * A chat as Markdown, for people to read: its title, what the person said and the assistant
 * answered, each tool call with its arguments and its result or error, and each question the
 * tools asked with the answer given, in the words of the question's form ("Seat: 10A · window").
 * Progress, logs and the signed conversation are left out: they are in the JSON export.
 *
 * @example
 * chatToMarkdown(chat) // '# Book a flight\n\n## You\n\nBook a flight from NYC to LAX\n\n## Assistant\n\n…'
 */
export function chatToMarkdown(chat: Chat): string {
  const blocks: string[] = [`# ${oneLine(chat.title) || 'Untitled chat'}`, `_Last changed ${new Date(chat.updatedAt).toISOString()}._`]
  const questions = new Map<string, PluginElicitRequestEvent>()
  for (const turn of chat.turns) blocks.push(...turnBlocks(turn, questions))
  return `${blocks.join('\n\n')}\n`
}

function turnBlocks(turn: ChatTurn, questions: Map<string, PluginElicitRequestEvent>): string[] {
  const blocks: string[] = []
  const { input } = turn
  if (input.text !== undefined) blocks.push('## You', input.text.trim() || '_(empty message)_')
  for (const response of input.pluginElicitResponses ?? []) {
    const question = questions.get(response.elicitId)
    const asked = question ? ` to “${oneLine(question.message)}”` : ''
    blocks.push(`**Answer${asked}:** ${answerWords(response.result, question)}`)
  }
  if (input.pluginAbort) blocks.push(`**Stopped** ${input.pluginAbort.reason ? `(${oneLine(input.pluginAbort.reason)})` : 'by the person'}.`)

  let text = ''
  let saidAssistant = false
  const flush = () => {
    if (text.trim() === '') return
    if (!saidAssistant) blocks.push('## Assistant')
    saidAssistant = true
    blocks.push(text.trim())
    text = ''
  }
  let streamedText = false
  for (const event of turn.events) {
    if (event.type === 'text') {
      text += event.content
      streamedText = true
      continue
    }
    if (event.type === 'complete') {
      // The whole answer comes with `complete` when it was not streamed in pieces.
      if (!streamedText) text += event.text
      continue
    }
    flush()
    if (event.type === 'tool_calls') {
      for (const call of event.calls) {
        blocks.push(`### Tool call: ${call.name}${call.title ? ` (${oneLine(call.title)})` : ''}`, fenced(JSON.stringify(call.arguments, null, 2) ?? 'null', 'json'))
      }
    } else if (event.type === 'plugin_elicit_request') {
      if (!questions.has(event.elicitId)) blocks.push(`**Question from ${event.toolName}:** ${oneLine(event.message)}`)
      questions.set(event.elicitId, event)
    } else if (event.type === 'plugin_elicit_rejected') {
      blocks.push(`**Answer refused:** ${oneLine(event.message)}`)
    } else if (event.type === 'tool_result') {
      blocks.push(`**Result of ${event.name}:**`, fenced(event.content, ''))
    } else if (event.type === 'tool_error') {
      blocks.push(`**${event.name} failed:** ${oneLine(event.message)}`)
    } else if (event.type === 'plugin_session_error') {
      blocks.push(`**The tool’s session ended:** ${oneLine(event.message)}`)
    } else if (event.type === 'error') {
      blocks.push(`**The turn failed:** ${oneLine(event.message)}`)
    }
  }
  flush()
  return blocks
}

function answerWords(result: { action: 'accept'; content?: unknown } | { action: 'decline' } | { action: 'cancel' }, question: PluginElicitRequestEvent | undefined): string {
  if (result.action === 'decline') return 'declined'
  if (result.action === 'cancel') return 'cancelled'
  const content = result.content
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return JSON.stringify(content) ?? ''
  const parts = describeAnswer({
    response: content as Record<string, unknown>,
    fieldTitles: question?.fieldTitles,
    choices: question?.choices,
    choiceAnswers: question?.choiceAnswers,
  })
  return parts.map((part) => `${part.title}: ${part.value}`).join('; ') || '(nothing)'
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** `text` in a fence longer than any run of backticks in it, so that nothing in it can end the block. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text}\n${fence}`
}
