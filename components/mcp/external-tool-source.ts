import type { PluginSource } from '@/lib/plugins'
import { splitExternalToolName } from '@/lib/mcp/client/tool-names'

/**
 * The registry's fallback for tool names no plugin serves: a name of the form `<server>__<tool>`
 * is an external MCP tool, whose browser half (`externalToolUi`) loads with its first card.
 */
export function externalToolSource(toolName: string): PluginSource | undefined {
  if (!splitExternalToolName(toolName)) return undefined
  return { toolName, load: () => import('./external-tool-ui').then(({ externalToolUi }) => ({ ...externalToolUi, toolName })) }
}
