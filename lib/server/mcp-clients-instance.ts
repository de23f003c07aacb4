import { createToolAudience, provideAppMcpClients, readMcpServersConfig, resolveMcpConfigPath, startMcpClients, type McpClients, type ToolAudience } from '../mcp/client'
import { ConfigError, type Environment } from './config-error'
import { getSignIn } from './sign-in-instance'

/** The servers of `mcp.json`: their connections, and who may use which one's tools. */
interface McpServers {
  clients: McpClients
  audience: ToolAudience
}

const globalForMcpClients = globalThis as typeof globalThis & { mcpServers?: Promise<McpServers> }

function mcpServers(): Promise<McpServers> {
  if (!globalForMcpClients.mcpServers) {
    globalForMcpClients.mcpServers = start()
    provideAppMcpClients(globalForMcpClients.mcpServers.then(({ clients }) => clients))
  }
  return globalForMcpClients.mcpServers
}

/**
 * The app's connections to the external MCP servers of `mcp.json` (or `MCP_CONFIG`), started
 * once when the server starts and kept for its lifetime. Without the file there are none and
 * the chat works as it always did; a server that cannot start is reported, never fatal.
 */
export async function getMcpClients(): Promise<McpClients> {
  return (await mcpServers()).clients
}

/**
 * Who may use which of those servers' tools: with sign-in configured, the people each entry's
 * `users` names and the admins (a stdio server without `users`: admins only); without, everyone.
 */
export async function getToolAudience(): Promise<ToolAudience> {
  return (await mcpServers()).audience
}

async function start(): Promise<McpServers> {
  const env = process.env
  const file = resolveMcpConfigPath({ env, cwd: process.cwd() })
  const config = readMcpServersConfig({ file, required: Boolean(env.MCP_CONFIG?.trim()) })
  // Read first: a sign-in configured wrongly stops the start before any server is.
  const signIn = (await getSignIn()) !== undefined
  const initializeTimeoutMs = readInitializeTimeout(env)
  const { clients } = await startMcpClients({ config, timing: initializeTimeoutMs ? { initializeTimeoutMs } : {} })
  const disabled = config.disabled ?? []
  if (config.servers.length + config.invalid.length + disabled.length > 0) {
    const names = [...config.servers.map((server) => server.name), ...config.invalid.map(({ name }) => `${name} (invalid)`), ...disabled.map((name) => `${name} (disabled)`)]
    console.log(`MCP servers from ${config.path}: ${names.join(', ')}`)
    for (const { error } of config.invalid) console.error(`MCP server config: ${error}`)
  }
  return { clients, audience: createToolAudience({ config, signIn }) }
}

/** `MCP_INITIALIZE_TIMEOUT_MS`: how long a server may take to answer `initialize` (default 30 s; an entry's `initializeTimeoutMs` wins). */
export function readInitializeTimeout(env: Environment): number | undefined {
  const text = env.MCP_INITIALIZE_TIMEOUT_MS?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`MCP_INITIALIZE_TIMEOUT_MS must be a positive whole number of milliseconds; got "${text}".`)
  return value
}
