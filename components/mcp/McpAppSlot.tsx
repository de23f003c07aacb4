import type { ToolCallEntry } from '@/lib/client'

/**
 * Where an external tool call whose tool has an MCP App shows that app, inside its tool card:
 * `uiResourceUri` is a `ui://` resource of `entry.external.server`. The MCP Apps host renders
 * here; it has what it needs in `entry`: `external` (server, the tool's own name, the resource),
 * `arguments`, and once the call ends `result.value` (the whole `CallToolResult`), all kept with
 * the chat across reloads. Nothing is rendered until then.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function McpAppSlot({ entry, uiResourceUri }: { entry: ToolCallEntry; uiResourceUri: string }) {
  return null
}
