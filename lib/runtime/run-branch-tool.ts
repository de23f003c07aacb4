import type { Operation } from 'effection'
import type { z } from 'zod'
import { checkLimits, type BranchLimits } from '../tools/limits'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { McpTool } from '../tools/types'
import { runTool } from './run-tool'
import type { ToolClient } from './tool-client'

export interface RunBranchToolOptions {
  /** Runtime-level limits: the tool's `.limits()` and each branch site win over these. */
  limits?: BranchLimits
  /** Defaults to a fresh `branch_…` id. */
  callId?: string
  parentMessages?: readonly ExtendedMessage[]
  parentSystemPrompt?: string
}

/**
 * Run a tool outside the chat, against any client: a scripted one in tests
 * (`createMockBranchClient`), or one that bridges to another protocol.
 *
 * @example
 * const client = createMockBranchClient({ elicitResponses: [{ action: 'accept', content: { cardNumber: 3 } }] })
 * const result = yield* runBranchTool(pickCardTool, { count: 5 }, client)
 */
export function* runBranchTool<TParams extends z.ZodType, TResult>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tool: McpTool<string, TParams, any, TResult>,
  params: z.input<TParams>,
  client: ToolClient,
  { limits, callId = `branch_${crypto.randomUUID()}`, parentMessages, parentSystemPrompt }: RunBranchToolOptions = {},
): Operation<TResult> {
  if (limits) checkLimits('runBranchTool', limits)
  return (yield* runTool({ tool, params, client, callId, limits, parentMessages, parentSystemPrompt })) as TResult
}
