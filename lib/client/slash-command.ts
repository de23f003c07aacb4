/** What the composer's text asks for: a message, a slash command, or a command that cannot be sent. */
export type ComposerIntent =
  | { kind: 'message' }
  | { kind: 'command'; name: string; arguments: Record<string, unknown> }
  | { kind: 'invalid'; message: string }

const COMMAND = /^\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/

/**
 * `/<tool> <json>` calls a tool directly (no JSON: no arguments). Anything that starts with a
 * slash and a tool-like name is a command: one whose arguments are not a JSON object is refused
 * here, in the browser, and never reaches the model as a message.
 */
export function parseComposerText(text: string): ComposerIntent {
  const match = COMMAND.exec(text.trim())
  if (!match) return { kind: 'message' }
  const [, name, rest] = match
  const json = rest?.trim()
  if (!json) return { kind: 'command', name: name!, arguments: {} }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    return { kind: 'invalid', message: `/${name}: the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)}). Write them as a JSON object, e.g. /${name} {"message": "hi"}.` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', message: `/${name}: the arguments must be a JSON object, e.g. /${name} {"message": "hi"}.` }
  }
  return { kind: 'command', name: name!, arguments: value as Record<string, unknown> }
}

/**
 * The tools a slash command may name, from `GET /api/tools`: not those only for their MCP App
 * (`appOnly`), which the chat refuses to start for a person as for the model.
 */
export function slashCommandTools<T extends { appOnly?: boolean }>(tools: readonly T[]): T[] {
  return tools.filter((tool) => !tool.appOnly)
}
