import type { CallToolResult, Tool } from '@modelcontextprotocol/client'
import type { Operation } from 'effection'
import { needsApproval, type ApprovalPolicy } from './approval-policy'
import { allowedInChat } from './chat-allowance'
import { EXTERNAL_QUESTION, type ApprovalQuestion } from './external-questions'
import type { ExternalToolContext } from './question-specs'

/**
 * The prefix of a slash command's call id (`directCallId` in `lib/engine/run-turn.ts`): the
 * engine gives it to the calls a person typed, and never to a model's (whose ids keep only
 * `[A-Za-z0-9_-]`). The call id is the server's own, so it cannot be claimed from outside.
 */
const TYPED_CALL_PREFIX = 'direct.'

/** Whether the call may be made, and whether it runs under "Allow for this chat"; a Deny's result otherwise. */
export type Approval = { approved: true; forThisChat: boolean } | { approved: false; result: CallToolResult }

/**
 * Ask the person before a call of an external tool, when it needs asking: a tool marked
 * read-only does not (under the server's `approve` policy, see `needsApproval`), nor one the
 * person typed as a slash command, nor one they allowed for the rest of this chat. Otherwise the
 * card asks, with the server, the tool, its description and the arguments: Allow once, Allow for
 * this chat, Deny. A Deny is a result the model reads, saying the tool was not called.
 *
 * Nothing here reaches the server: a call waiting for its approval is a question like any
 * other, replayed from the journal after a restart, and the same inputs decide again on a replay
 * (the policy, the tool's annotations, the call id and the conversation it was made from).
 */
export function* approveCall({
  server,
  chatName,
  tool,
  params,
  policy,
  ctx,
}: {
  server: string
  /** `<server>__<tool>`: the name the chat (and its allowances) know the tool by. */
  chatName: string
  tool: Tool
  params: Record<string, unknown>
  policy: ApprovalPolicy
  ctx: ExternalToolContext
}): Operation<Approval> {
  if (allowedInChat({ messages: ctx.parentMessages, toolName: chatName })) return { approved: true, forThisChat: true }
  if (ctx.callId.startsWith(TYPED_CALL_PREFIX) || !needsApproval({ policy, tool })) return { approved: true, forThisChat: false }
  const title = tool.title ?? tool.annotations?.title
  const question: ApprovalQuestion = {
    server,
    tool: tool.name,
    ...(title ? { title } : {}),
    description: tool.description ?? '',
    arguments: params,
    ...(tool.annotations?.destructiveHint === true ? { destructive: true } : {}),
  }
  const answer = yield* ctx.elicit(EXTERNAL_QUESTION.approval, { message: `Allow ${server} to run ${tool.name}?`, ...question })
  if (answer.action === 'accept') return { approved: true, forThisChat: answer.content.scope === 'chat' }
  const said = answer.action === 'decline' ? 'denied' : 'dismissed'
  return {
    approved: false,
    result: { content: [{ type: 'text', text: `The person ${said} this call: ${tool.name} on ${server} was not run.` }], isError: true },
  }
}
