import { createMcpAppsHost, type AppResourceSource, type McpAppsApp } from '../mcp/apps'
import { getChatApp } from './chat-server-instance'
import { readServerConfig } from './config'

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
  const { identity, rateLimiter } = await getChatApp()
  const source = await externalServers()
  return {
    identity,
    rateLimiter,
    host: source ? createMcpAppsHost({ source, secret: readServerConfig().sessionSecret }) : undefined,
  }
}

/** The connections to external MCP servers; none until the MCP client is wired in. */
async function externalServers(): Promise<AppResourceSource | undefined> {
  return undefined
}
