import type { Message } from '../protocol/messages'
import type { ExtendedMessage } from '../tools/sample-messages'
import { toExtendedMessages } from '../models/model-messages'

/** The default of `maxToolContextBytes`: a few turns of an ordinary chat. */
export const DEFAULT_TOOL_CONTEXT_BYTES = 16 * 1024

/**
 * The conversation a tool call is made from, as the tool sees it (`ctx.parentMessages`): the
 * messages up to and including the assistant message that called it, cut to its most recent
 * messages whose JSON fits in `maxBytes`.
 *
 * Why a cap: a tool waiting in memory holds its `parentMessages` as long as it waits there,
 * and a request may carry a conversation of up to 2 MiB; without the cap a flood of tool calls
 * would keep that much per waiting tool. With it, a waiting tool holds at most `maxBytes` of
 * conversation (the tools of one model step share one copy).
 *
 * Invariant: the assistant message with the call is always kept (the model wrote it, within
 * its output-token cap), and the result never starts with tool results whose calls were cut.
 */
export function toolContextOf({ conversation, callId, maxBytes }: { conversation: readonly Message[]; callId?: string; maxBytes: number }): ExtendedMessage[] {
  const index = callId === undefined ? -1 : conversation.findIndex((message) => message.tool_calls?.some((call) => call.id === callId))
  const upTo = index === -1 ? conversation : conversation.slice(0, index + 1)
  let start = upTo.length
  let size = 0
  while (start > 0) {
    const next = JSON.stringify(upTo[start - 1]).length
    if (start < upTo.length && size + next > maxBytes) break
    size += next
    start--
  }
  while (start < upTo.length - 1 && upTo[start]!.role === 'tool') start++
  return toExtendedMessages(upTo.slice(start))
}
