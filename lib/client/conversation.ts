import type { Message } from '../protocol/messages'

/**
 * Make a conversation that a turn left half-way valid to send again: every assistant
 * tool call gets a tool message (an error saying why it has none), and the assistant text
 * streamed so far, if any, becomes an assistant message.
 */
export function closeConversation({
  messages,
  partialText,
  reason,
}: {
  messages: readonly Message[]
  partialText: string
  reason: string
}): Message[] {
  const closed = closeDanglingToolCalls({ messages, reason })
  if (partialText.trim() !== '') closed.push({ role: 'assistant', content: partialText })
  return closed
}

/** Give each assistant tool call without an answer a tool message `Error: <reason>`. */
export function closeDanglingToolCalls({ messages, reason }: { messages: readonly Message[]; reason: string }): Message[] {
  const result: Message[] = []
  let index = 0
  while (index < messages.length) {
    const message = messages[index]
    result.push(message)
    index++
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue
    const answered = new Set<string>()
    while (index < messages.length && messages[index].role === 'tool') {
      const toolMessage = messages[index]
      if (toolMessage.tool_call_id) answered.add(toolMessage.tool_call_id)
      result.push(toolMessage)
      index++
    }
    for (const call of message.tool_calls) {
      if (!answered.has(call.id)) result.push({ role: 'tool', tool_call_id: call.id, content: `Error: ${reason}` })
    }
  }
  return result
}
