import type { CallToolResult } from '@modelcontextprotocol/client'
import { DEFAULT_APPROVAL_POLICY, needsApproval } from '../client/approval-policy'
import type { McpServerConnection } from '../client/server-connection'
import type { McpClients } from '../client/use-mcp-clients'
import type { AppResourceSource } from './app-resource-source'
import { McpAppError } from './mcp-app-error'

/**
 * The MCP Apps host's view of the app's connections to the servers of `mcp.json`. An app of a
 * server that asks each person to connect (`needs_connect`) reads its resource and calls its
 * tools through the asking person's own connection, with their token, never the shared one;
 * someone who has not connected is refused (`not_connected`). A server that is not up says why,
 * instead of "no such tool".
 */
export function clientsAppSource(clients: McpClients): AppResourceSource {
  async function connectionFor(server: string, clientId: string): Promise<McpServerConnection> {
    const info = clients.servers().find((candidate) => candidate.name === server)
    if (!info) throw new Error(`there is no MCP server named "${server}" in mcp.json`)
    if (info.status === 'disabled') throw new Error('it is disabled in the MCP servers config')
    const connection = clients.personalServer(server) ? await personalConnection(server, clientId) : clients.connection(server)!
    if (connection.status !== 'ready' || !connection.client) {
      throw new Error(connection.status === 'starting' ? 'it is still starting' : `it is down (${connection.error ?? 'failed'})`)
    }
    return connection
  }

  async function personalConnection(server: string, clientId: string): Promise<McpServerConnection> {
    const own = await clients.personalConnection(server, clientId)
    if (!own || own.status === 'needs_connect') throw new McpAppError('not_connected', `You have not connected "${server}": connect it in the chat first, then open its app again.`)
    return own
  }

  return {
    getTool: async ({ server, name, clientId }) => (await connectionFor(server, clientId)).tools.find((tool) => tool.name === name),
    readResource: async ({ server, uri, clientId, signal }) => (await connectionFor(server, clientId)).client!.readResource({ uri }, { signal }),
    callTool: async ({ server, name, arguments: args, clientId, signal }) => (await (await connectionFor(server, clientId)).client!.callTool({ name, arguments: args }, { signal })) as CallToolResult,
    // An app's call asks the person when the model's would: the server's `approve`, the tool's annotations.
    needsApproval: ({ server, tool }) => needsApproval({ policy: clients.connection(server)?.approve ?? DEFAULT_APPROVAL_POLICY, tool }),
  }
}
