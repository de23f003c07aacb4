import type { Tool } from '@modelcontextprotocol/client'

/**
 * The values of an `mcp.json` entry's `"approve"`: which of the server's tools the person must
 * approve before each call. `write` (the default): every tool not marked read-only; `always`:
 * every tool; `never`: none (a server the person trusts with everything).
 */
export const APPROVAL_POLICIES = ['write', 'always', 'never'] as const
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number]
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = 'write'

/**
 * Whether a tool only reads, as its server marks it: `annotations.readOnlyHint: true`, and not
 * `destructiveHint: true` too (a server that says both is taken at its more careful word).
 */
export function isReadOnly(tool: Pick<Tool, 'annotations'>): boolean {
  return tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true
}

/**
 * Whether a call of `tool` waits for the person's approval under `policy`, before anything
 * else that could allow it (a slash command the person typed, "Allow for this chat").
 *
 * @example
 * needsApproval({ policy: 'write', tool: { annotations: { readOnlyHint: true } } }) // false
 */
export function needsApproval({ policy, tool }: { policy: ApprovalPolicy; tool: Pick<Tool, 'annotations'> }): boolean {
  if (policy === 'never') return false
  if (policy === 'always') return true
  return !isReadOnly(tool)
}
