import type { Tool } from '@modelcontextprotocol/client'

/** Who may call a tool (MCP Apps, `McpUiToolVisibility`): the model (and so the person), its app. */
export type ToolVisibility = 'model' | 'app'

const BOTH: readonly ToolVisibility[] = ['model', 'app']

/**
 * A tool's `_meta.ui.visibility` (the MCP Apps spec; the ext-apps SDK reads only this key, no
 * flat `ui/visibility`): who may call it. Absent or not an array means both; unknown entries
 * are ignored.
 *
 * @example
 * toolVisibilityOf({ _meta: { ui: { visibility: ['app'] } } }) // ['app']: only its own app calls it
 */
export function toolVisibilityOf(tool: Pick<Tool, '_meta'>): readonly ToolVisibility[] {
  const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility
  if (!Array.isArray(visibility)) return BOTH
  return visibility.filter((entry): entry is ToolVisibility => entry === 'model' || entry === 'app')
}

/** Whether the model may see and call the tool (slash commands follow the model). */
export function visibleToModel(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibilityOf(tool).includes('model')
}

/** Whether an app of the tool's own server may call it. */
export function visibleToApps(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibilityOf(tool).includes('app')
}
