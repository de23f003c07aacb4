import type { CallToolResult } from '@modelcontextprotocol/client'
import type { ToolCallEntry } from '@/lib/client'
import { McpAppFrame } from '../mcp-app/McpAppFrame'

/**
 * Where an external tool call whose tool has an MCP App shows that app, inside its tool card.
 * The app is opened by its server and tool (the server's own `_meta.ui.resourceUri` names the
 * resource, never the browser); it gets the call's arguments at once and `result.value` (the
 * whole `CallToolResult`) when the call ends.
 */
export function McpAppSlot({ entry }: { entry: ToolCallEntry; uiResourceUri: string }) {
  if (!entry.external) return null
  return (
    <McpAppFrame
      server={entry.external.server}
      tool={entry.external.tool}
      callId={entry.callId}
      arguments={isObject(entry.arguments) ? entry.arguments : {}}
      result={entry.status === 'completed' || entry.status === 'failed' ? callToolResultOf(entry.result?.value) : undefined}
      cancelled={entry.status === 'cancelled' || entry.status === 'stopped' ? (entry.error ?? 'The call was stopped.') : undefined}
    />
  )
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function callToolResultOf(value: unknown): CallToolResult | undefined {
  return isObject(value) && Array.isArray(value.content) ? (value as CallToolResult) : undefined
}
