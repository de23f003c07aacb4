import { clientsAppSource, createMcpAppsHost, type McpAppsApp } from '../mcp/apps'
import { questionAppsOf } from '../mcp/client'
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
        ? createMcpAppsHost({ source: clientsAppSource(clients), questions: questionAppsOf(chat), audience: toolAudience, secret: readServerConfig().sessionSecret })
        : undefined,
  }
}
