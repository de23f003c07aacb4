/** The most tools without a skill named one by one; the rest are counted. */
const MAX_OTHER_TOOLS_NAMED = 5

/**
 * What the offline assistant can do: the examples of the skills whose tools are on offer, then
 * the other tools on offer (which no skill describes, such as another MCP server's), by name.
 */
export function describeCapabilities({
  greeting = false,
  examples,
  otherTools = [],
}: {
  greeting?: boolean
  examples: readonly string[]
  otherTools?: readonly string[]
}): string {
  const opening = `${greeting ? 'Hello! ' : ''}I'm the offline assistant — no API key needed.`
  if (examples.length === 0 && otherTools.length === 0) return `${opening} No tools are on offer right now, so I can only talk.`
  const named = otherTools.slice(0, MAX_OTHER_TOOLS_NAMED)
  const more = otherTools.length - named.length
  const others =
    otherTools.length === 0
      ? []
      : [`use ${otherTools.length === 1 ? 'the tool' : 'the tools'} ${listed(more > 0 ? [...named, `${more} more`] : named)} (name one, or type / to call it yourself)`]
  return `${opening} I can ${listed([...examples, ...others])}.`
}

function listed(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The reply to a request for a tool that cannot be called now, when its skill says nothing better. */
export function toolUnavailable(toolName: string): string {
  return `I'd like to help with that, but the ${toolName} tool isn't available in this conversation right now.`
}

/** A brief answer to a question the offline model cannot research, naming what was asked. */
export function briefAnswer(question: string): string {
  const topic = question.trim().replace(/\s+/g, ' ')
  const shown = topic.length > 120 ? `${topic.slice(0, 117)}…` : topic
  if (!shown) return "I'm the offline assistant: ask me something specific and I'll answer briefly."
  return (
    `About “${shown}”: I'm the offline assistant, so I can only give a brief answer — ` +
    'keep it simple, and check the details with an up-to-date source.'
  )
}
