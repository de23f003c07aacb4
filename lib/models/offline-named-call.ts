/**
 * A request that names a tool on offer and its arguments: "Call everything__echo with
 * {"message": "hi"}", "use files__list", "run the tool weather__today with {…}". The offline
 * model knows no tool but those its skills teach it; this is how it reaches any other tool it
 * is offered (an external MCP server's) when asked plainly. Undefined when the message is not
 * such a request, names no tool on offer, or its arguments are not a JSON object.
 */
export function namedToolCall({ text, toolNames }: { text: string; toolNames: ReadonlySet<string> }): { toolName: string; input: Record<string, unknown> } | undefined {
  const match = /^\s*(?:please\s+)?(?:call|use|run)\s+(?:the\s+tool\s+)?`?([A-Za-z0-9_-]+)`?(?:\s+with\s+([\s\S]+?))?\s*[.!]?\s*$/i.exec(text)
  if (!match || !toolNames.has(match[1]!)) return undefined
  if (match[2] === undefined) return { toolName: match[1]!, input: {} }
  try {
    const input: unknown = JSON.parse(match[2])
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined
    return { toolName: match[1]!, input: input as Record<string, unknown> }
  } catch {
    return undefined
  }
}
