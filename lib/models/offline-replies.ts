/** What the offline assistant can do, from the examples of the skills whose tools are on offer. */
export function describeCapabilities({ greeting = false, examples }: { greeting?: boolean; examples: readonly string[] }): string {
  const opening = `${greeting ? 'Hello! ' : ''}I'm the offline assistant — no API key needed.`
  if (examples.length === 0) return `${opening} No tools are on offer right now, so I can only talk.`
  const list = examples.length === 1 ? examples[0] : `${examples.slice(0, -1).join(', ')} and ${examples.at(-1)}`
  return `${opening} I can ${list}.`
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
