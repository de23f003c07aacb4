import { createMcpAppsHost, type AppResourceSource, type McpAppsApp } from '../mcp/apps'
import { DEFAULT_APPROVAL_POLICY, needsApproval, questionAppsOf, type McpClients } from '../mcp/client'
import { getChatApp } from './chat-server-instance'
import { readServerConfig } from './config'
import { getMcpClients } from './mcp-clients-instance'

const globalForApps = globalThis as typeof globalThis & { mcpApps?: Promise<McpAppsApp> }

/**
 * What the MCP Apps routes need: the host over the connections to the servers of `mcp.json`,
 * the chat's identity (tickets belong to a browser) and its rate limiter.
 */
export function getMcpAppsApp(): Promise<McpAppsApp> {
  globalForApps.mcpApps ??= start()
  return globalForApps.mcpApps
}

async function start(): Promise<McpAppsApp> {
  // The chat app starts the MCP clients; both are the process's one instance.
  const [{ chat, identity, admission, toolAudience }, clients] = await Promise.all([getChatApp(), getMcpClients()])
  return {
    identity,
    admission,
    host:
      clients.servers().length > 0
        ? createMcpAppsHost({ source: appResourceSource(clients), questions: questionAppsOf(chat), audience: toolAudience, secret: readServerConfig().sessionSecret })
        : undefined,
  }
}

/** The host's view of the connections: a server that is not up says why, instead of "no such tool". */
function appResourceSource(clients: McpClients): AppResourceSource {
  return {
    async getTool({ server, name }) {
      const info = clients.servers().find((candidate) => candidate.name === server)
      if (!info) throw new Error(`there is no MCP server named "${server}" in mcp.json`)
      if (info.status === 'disabled') throw new Error('it is disabled in the MCP servers config')
      if (info.status !== 'ready') throw new Error(info.status === 'starting' ? 'it is still starting' : `it is down (${info.error ?? 'failed'})`)
      return clients.getTool(server, name)
    },
    readResource: ({ server, uri, signal }) => clients.readResource(server, uri, { signal }),
    callTool: ({ server, name, arguments: args, signal }) => clients.callTool(server, name, args, { signal }),
    // An app's call asks the person when the model's would: the server's `approve`, the tool's annotations.
    needsApproval: ({ server, tool }) => needsApproval({ policy: clients.connection(server)?.approve ?? DEFAULT_APPROVAL_POLICY, tool }),
  }
}
