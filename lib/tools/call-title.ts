import type { AnyMcpTool } from './types'

/** The longest a call's title may be: a heading, not a paragraph. */
export const MAX_CALL_TITLE = 120

/**
 * A call's short title for people, from its tool's `.title()` and the call's arguments: the
 * arguments are parsed as the tool will parse them, and a title that cannot be made (no
 * `.title()`, arguments the tool would refuse, a title function that throws or gives nothing) is
 * no title — the card shows the tool's name and arguments instead. Never longer than
 * `MAX_CALL_TITLE`, cut at a word.
 */
export function callTitleOf(tool: AnyMcpTool | undefined, input: unknown): string | undefined {
  if (!tool?.title) return undefined
  const parsed = tool.parameters.safeParse(input)
  if (!parsed.success) return undefined
  let title: unknown
  try {
    title = tool.title(parsed.data)
  } catch {
    return undefined
  }
  if (typeof title !== 'string') return undefined
  const line = title.replace(/\s+/g, ' ').trim()
  if (!line) return undefined
  if (line.length <= MAX_CALL_TITLE) return line
  const cut = line.slice(0, MAX_CALL_TITLE - 1)
  const space = cut.lastIndexOf(' ')
  return `${space > MAX_CALL_TITLE / 2 ? cut.slice(0, space) : cut}…`
}
