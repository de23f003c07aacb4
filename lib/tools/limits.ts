/**
 * Bounds on a tool's branches. Set at three levels — the runtime (chat server or
 * `runBranchTool`), the tool (`.limits()`), and the branch site (`ctx.branch(fn, options)`) —
 * and the most specific one wins.
 */
export interface BranchLimits {
  /** The deepest a branch may be nested: the tool itself is depth 0, its branches depth 1. */
  maxDepth?: number
  /** Tokens (input + output) all sampling in this branch and below may use. */
  maxTokens?: number
  /** Milliseconds a sub-branch may run before it is halted with `BranchTimeoutError`. */
  timeout?: number
}

/** What a tool needs from the client that runs it. */
export interface ToolRequirements {
  elicitation: boolean
  sampling: boolean
}

/** The runtime's own bounds, used where neither the tool nor the branch site says otherwise. */
export const DEFAULT_BRANCH_LIMITS = { maxDepth: 4, timeout: 120_000 } as const satisfies BranchLimits

/** Limits must be positive whole numbers (timeouts in milliseconds); anything else is a bug worth hearing about now. */
export function checkLimits(where: string, limits: BranchLimits): BranchLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) continue
    const minimum = name === 'maxDepth' ? 0 : 1
    if (!Number.isInteger(value) || value < minimum) {
      throw new RangeError(`${where}: limit ${name} must be a whole number of at least ${minimum}, not ${String(value)}.`)
    }
  }
  return limits
}
