import { provideAppMcpClients, readMcpServersConfig, resolveMcpConfigPath, startMcpClients, type McpClients } from '../mcp/client'
import { ConfigError, type Environment } from './config-error'

const globalForMcpClients = globalThis as typeof globalThis & { mcpClients?: Promise<McpClients> }

/**
 * The app's connections to the external MCP servers of `mcp.json` (or `MCP_CONFIG`), started
 * once when the server starts and kept for its lifetime. Without the file there are none and
 * the chat works as it always did; a server that cannot start is reported, never fatal.
 */
export function getMcpClients(): Promise<McpClients> {
  if (!globalForMcpClients.mcpClients) {
    globalForMcpClients.mcpClients = start()
    provideAppMcpClients(globalForMcpClients.mcpClients)
  }
  return globalForMcpClients.mcpClients
}

async function start(): Promise<McpClients> {
  const env = process.env
  const file = resolveMcpConfigPath({ env, cwd: process.cwd() })
  const config = readMcpServersConfig({ file, required: Boolean(env.MCP_CONFIG?.trim()) })
  const initializeTimeoutMs = readInitializeTimeout(env)
  const { clients } = await startMcpClients({ config, timing: initializeTimeoutMs ? { initializeTimeoutMs } : {} })
  const disabled = config.disabled ?? []
  if (config.servers.length + config.invalid.length + disabled.length > 0) {
    const names = [...config.servers.map((server) => server.name), ...config.invalid.map(({ name }) => `${name} (invalid)`), ...disabled.map((name) => `${name} (disabled)`)]
    console.log(`MCP servers from ${config.path}: ${names.join(', ')}`)
    for (const { error } of config.invalid) console.error(`MCP server config: ${error}`)
  }
  return clients
}

/** `MCP_INITIALIZE_TIMEOUT_MS`: how long a server may take to answer `initialize` (default 30 s; an entry's `initializeTimeoutMs` wins). */
export function readInitializeTimeout(env: Environment): number | undefined {
  const text = env.MCP_INITIALIZE_TIMEOUT_MS?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`MCP_INITIALIZE_TIMEOUT_MS must be a positive whole number of milliseconds; got "${text}".`)
  return value
}
