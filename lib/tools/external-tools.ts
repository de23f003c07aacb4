import type { ExternalToolOrigin } from '../protocol/events'
import type { AnyMcpTool } from './types'

/** A tool the chat gets from elsewhere (an external MCP server's), as its source offers it. */
export interface ExternalTool {
  tool: AnyMcpTool
  description: string
  /** The JSON Schema of its input, as its server gave it: what the model sees. */
  inputSchema: Record<string, unknown>
  /** Where it comes from: `mcp:<server>`. */
  source: string
  origin: ExternalToolOrigin
  /**
   * Only for its MCP App (`_meta.ui.visibility` without `"model"`): never offered to the model
   * nor started by it or by a slash command; its app calls it through the MCP Apps host.
   */
  appOnly?: boolean
}

/**
 * Tools that come and go while the chat runs (external MCP servers start, fail, change their
 * lists). Declared here, below both, so that the MCP host (`lib/mcp/client`) offers tools to the
 * chat engine without either importing the other.
 */
export interface ExternalToolSource {
  /**
   * The tools offered now; with `person`, theirs too (the tools of servers each person connects
   * to on their own, from their own connection).
   */
  list(person?: string): readonly ExternalTool[]
  /** One tool by name, offered now or not (a session waiting for it still needs it); with `person`, theirs too. */
  get(name: string, person?: string): ExternalTool | undefined
}
