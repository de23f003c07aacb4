import type { Operation } from 'effection'
import type { ElicitsMap } from '../tools/elicits'
import { DEFAULT_BRANCH_LIMITS, type BranchLimits } from '../tools/limits'
import type { ExtendedMessage } from '../tools/sample-messages'
import type { AnyMcpTool, McpToolContext } from '../tools/types'
import { Branch, type ToolRun } from './branch'
import { ToolUsageError } from './errors'
import { describeIssues, toIssues } from './json-schema'
import type { ToolClient } from './tool-client'

export interface RunToolOptions {
  tool: AnyMcpTool
  params: unknown
  client: ToolClient
  /** The tool call's id: numbered elicitations and exchange ids derive from it. */
  callId: string
  /** The runtime's limits, already checked; the tool's `.limits()` and each branch site override them. */
  limits?: BranchLimits
  /** The conversation the tool was called from (`ctx.parentMessages`). */
  parentMessages?: readonly ExtendedMessage[]
  parentSystemPrompt?: string
}

/**
 * Run one tool call to its end against a client: check what the tool requires, validate its
 * parameters, and give it a root `ctx` whose every call goes through the client. A refusal is
 * thrown when the operation runs, like any failure of the tool.
 */
export function runTool({
  tool,
  params,
  client,
  callId,
  limits = {},
  parentMessages = [],
  parentSystemPrompt,
}: RunToolOptions): Operation<unknown> {
  for (const capability of ['elicitation', 'sampling'] as const) {
    if (tool.requires[capability] && !client.capabilities[capability]) {
      return failure(new ToolUsageError(`Tool "${tool.name}" requires ${capability}, which this client does not offer.`))
    }
  }
  const parsed = tool.parameters.safeParse(params)
  if (!parsed.success) {
    return failure(new ToolUsageError(`Invalid arguments for ${tool.name}: ${describeIssues(toIssues(parsed.error))}`))
  }
  const run: ToolRun = {
    tool,
    client,
    callId,
    parentSystemPrompt,
    limits: { ...DEFAULT_BRANCH_LIMITS, ...defined(limits), ...defined(tool.limits) },
    seq: 0,
    pendingKey: undefined,
  }
  const root = Branch.root(run, parentMessages)
  // The tool's own operation, not wrapped in another: a waiting session keeps every frame.
  return tool.execute(parsed.data, root.context<McpToolContext<ElicitsMap>>())
}

function failure(error: Error): Operation<never> {
  return {
    // eslint-disable-next-line require-yield
    *[Symbol.iterator]() {
      throw error
    },
  }
}

function defined(limits: BranchLimits): BranchLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined))
}
