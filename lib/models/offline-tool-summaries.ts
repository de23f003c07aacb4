import type { JSONValue, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider'
import type { OfflineSkill } from './offline-skill'

/** A tool's result as the offline model sees it at the end of the prompt. */
export interface ToolResultInput {
  toolName: string
  output: LanguageModelV3ToolResultOutput
}

const MAX_RESULT_CHARS = 64 * 1024

/**
 * One paragraph telling the user what a tool call came to: a failure is said generically,
 * anything else by the tool's own skill, else as the value the tool returned.
 *
 * @example
 * summariseToolResult({ result: { toolName: 'reserve_table', output: { type: 'text', value: 'Error: No tables left.' } }, skills: [] })
 * // 'Sorry, the reserve_table tool failed: No tables left.'
 */
export function summariseToolResult({ result, skills }: { result: ToolResultInput; skills: readonly OfflineSkill[] }): string {
  const { toolName, output } = result
  const skill = skills.find((candidate) => candidate.toolName === toolName)
  switch (output.type) {
    case 'text':
      if (/^\s*error:/i.test(output.value.slice(0, 16))) return failure(toolName, output.value)
      return summariseValue({ toolName, skill, value: parseJsonText(output.value) })
    case 'json':
      return summariseValue({ toolName, skill, value: output.value })
    case 'error-text':
      return failure(toolName, output.value)
    case 'error-json':
      return failure(toolName, JSON.stringify(output.value))
    case 'execution-denied':
      return `The ${toolName} tool was not run${output.reason ? `: ${output.reason}` : '.'}`
    case 'content': {
      const text = output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
      return summariseValue({ toolName, skill, value: parseJsonText(text) })
    }
  }
}

function failure(toolName: string, message: string): string {
  const reason = clip(message.replace(/^\s*error:\s*/i, '').trim(), 300) || 'no reason was given.'
  return `Sorry, the ${toolName} tool failed: ${reason}`
}

function summariseValue({ toolName, skill, value }: { toolName: string; skill: OfflineSkill | undefined; value: JSONValue }): string {
  const own = skill?.summarise?.(value)
  if (own) return own
  const texts = mcpResultTexts(value)
  if (texts !== undefined) return `The ${toolName} tool ${texts.isError ? 'reported an error' : 'returned'}: ${clip(texts.text, 300)}`
  const shown = typeof value === 'string' ? value : JSON.stringify(value)
  return `The ${toolName} tool returned: ${clip(shown, 300)}`
}

function parseJsonText(value: string): JSONValue {
  // Past a size no tool result of ours reaches, the text is shown as it is, not parsed.
  if (value.length > MAX_RESULT_CHARS || !/^\s*[[{]/.test(value.slice(0, 64))) return value
  try {
    return JSON.parse(value) as JSONValue
  } catch {
    return value
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}…` : text
}

/** The text blocks of an MCP `CallToolResult` (an external server's tool), when `value` is one. */
function mcpResultTexts(value: JSONValue): { text: string; isError: boolean } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(value.content)) return undefined
  const texts = value.content.flatMap((block) =>
    typeof block === 'object' && block !== null && !Array.isArray(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  )
  if (texts.length === 0) return undefined
  return { text: texts.join(' '), isError: value.isError === true }
}
