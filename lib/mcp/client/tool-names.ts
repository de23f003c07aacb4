/** The separator between a server's name and its tool's own name: `everything__echo`. */
export const EXTERNAL_TOOL_SEPARATOR = '__'

/** What models accept as a tool name (OpenAI's rule, the strictest in use). */
const MODEL_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The chat's name for a server's tool: the `mcp.json` key, two underscores, the tool's own
 * name with its hyphens kept. Undefined when the result is not a name a model accepts (a tool
 * named with dots or spaces, or too long): such a tool is not offered.
 */
export function externalToolName({ server, tool }: { server: string; tool: string }): string | undefined {
  const name = `${server}${EXTERNAL_TOOL_SEPARATOR}${tool}`
  return MODEL_TOOL_NAME.test(name) ? name : undefined
}

/** The server and tool a chat name stands for (server names never contain `__`). */
export function splitExternalToolName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(EXTERNAL_TOOL_SEPARATOR)
  if (at <= 0 || at + EXTERNAL_TOOL_SEPARATOR.length >= name.length) return undefined
  return { server: name.slice(0, at), tool: name.slice(at + EXTERNAL_TOOL_SEPARATOR.length) }
}
