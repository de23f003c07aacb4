import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client'

/**
 * What the MCP Apps host needs from the connections to external servers (the client's
 * connection manager implements it; tests use a real SDK client). `server` is the `mcp.json`
 * key; `name` is the tool's own name on that server, not the chat's `<server>__<tool>`;
 * `clientId` is who asks, whose own connection serves a server each person connects to.
 */
export interface AppResourceSource {
  /** The tool as the server listed it, `_meta` included; undefined if the server has no such tool. */
  getTool(options: { server: string; name: string; clientId: string }): Promise<Tool | undefined>
  readResource(options: { server: string; uri: string; clientId: string; signal?: AbortSignal }): Promise<ReadResourceResult>
  callTool(options: { server: string; name: string; arguments: Record<string, unknown>; clientId: string; signal?: AbortSignal }): Promise<CallToolResult>
  /**
   * Whether a call of this tool waits for the person's approval, as a call the model makes would
   * (the server's `approve` policy and the tool's annotations); absent: none does.
   */
  needsApproval?(options: { server: string; tool: Tool }): boolean
}
