import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client'
import type { McpClients } from './use-mcp-clients'

// On globalThis: the production server runs instrumentation and each route from bundles of
// their own, each with its own copy of this module; all must reach the one set of connections.
const KEY = Symbol.for('chat-app.mcpClients')
const slot = globalThis as typeof globalThis & { [KEY]?: Promise<McpClients> }

/** Called once by the composition root (`lib/server`) when it starts the app's connections. */
export function provideAppMcpClients(clients: Promise<McpClients>): void {
  slot[KEY] = clients
}

/** The app's connections to its external MCP servers. */
export function appMcpClients(): Promise<McpClients> {
  const clients = slot[KEY]
  if (!clients) return Promise.reject(new Error('The MCP clients have not been started (lib/server starts them with the chat server).'))
  return clients
}

/**
 * Read a resource of one configured server, e.g. an MCP App's HTML.
 *
 * @example
 * const { contents } = await readResource('basic-react', 'ui://basic-react/app.html')
 */
export async function readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<ReadResourceResult> {
  return (await appMcpClients()).readResource(server, uri, options)
}

/** Call a tool of one configured server by its own name; `signal` cancels it. */
export async function callTool(server: string, name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult> {
  return (await appMcpClients()).callTool(server, name, args, options)
}

/** A tool of one configured server as it lists it (with `_meta`), while the server is up. */
export async function getTool(server: string, name: string): Promise<Tool | undefined> {
  return (await appMcpClients()).getTool(server, name)
}
