import type { Operation } from 'effection'
import { createToolAudience, provideAppMcpClients, readMcpServersConfig, resolveMcpConfigPath, startMcpClients, type McpClients, type McpServersConfig, type ToolAudience } from '../mcp/client'
import {
  createMemoryCredentialStore,
  createPersonalAccess,
  useEmbeddedCredentialStore,
  useRedisCredentialStore,
  type CredentialStore,
  type PersonalAccess,
} from '../mcp/client/personal'
import { serverLogger } from '../telemetry'
import { readServerConfig } from './config'
import { ConfigError, type Environment } from './config-error'
import { openForProcess } from './open-for-process'
import { useChosenStore } from './chosen-store'
import { getSignIn } from './sign-in-instance'

/** The servers of `mcp.json`: their connections, who may use which one's tools, and each person's credentials for the `url` ones. */
interface McpServers {
  clients: McpClients
  audience: ToolAudience
  personal: PersonalAccess | undefined
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

/** Each person's credentials for the `url` servers of `mcp.json`; undefined when it has none. */
export async function getPersonalAccess(): Promise<PersonalAccess | undefined> {
  return (await mcpServers()).personal
}

async function start(): Promise<McpServers> {
  const env = process.env
  const file = resolveMcpConfigPath({ env, cwd: process.cwd() })
  const config: McpServersConfig = readMcpServersConfig({ file, required: Boolean(env.MCP_CONFIG?.trim()) })
  // Read first: a sign-in configured wrongly stops the start before any server is.
  const signIn = (await getSignIn()) !== undefined
  const initializeTimeoutMs = readInitializeTimeout(env)
  const personal = config.servers.some((server) => server.transport !== 'stdio') ? await openPersonalAccess(env) : undefined
  const { clients } = await startMcpClients({ config, timing: initializeTimeoutMs ? { initializeTimeoutMs } : {}, ...(personal ? { personal } : {}) })
  const disabled = config.disabled ?? []
  if (config.servers.length + config.invalid.length + disabled.length > 0) {
    const names = [...config.servers.map((server) => server.name), ...config.invalid.map(({ name }) => `${name} (invalid)`), ...disabled.map((name) => `${name} (disabled)`)]
    const logger = serverLogger()
    logger.info('MCP servers configured', { code: 'mcp_servers_configured', path: config.path, servers: names.join(', ') })
    // The file's validation error is ours (it names the entry and the field), never a secret's value: on the line always.
    for (const { name, error } of config.invalid) logger.error('an MCP server’s entry is not valid; it is not started', { code: 'mcp_server_config_invalid', server: name, detail: error })
  }
  return { clients, audience: createToolAudience({ config, signIn }), personal }
}

/** `MCP_INITIALIZE_TIMEOUT_MS`: how long a server may take to answer `initialize` (default 30 s; an entry's `initializeTimeoutMs` wins). */
export function readInitializeTimeout(env: Environment): number | undefined {
  const text = env.MCP_INITIALIZE_TIMEOUT_MS?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`MCP_INITIALIZE_TIMEOUT_MS must be a positive whole number of milliseconds; got "${text}".`)
  return value
}

/**
 * Each person's credentials for the `url` servers: sealed with a key derived from
 * `SESSION_SECRET` (given, or made once in `DATA_DIR`), kept where the other data is (Redis, else
 * `DATA_DIR/mcp-credentials.db`; `SESSION_STORE=memory`: in memory). The OAuth callback is
 * `APP_URL`'s (`http://localhost:<PORT>` without it).
 */
async function openPersonalAccess(env: Environment): Promise<PersonalAccess> {
  const server = readServerConfig()
  const useStore = (): Operation<CredentialStore> =>
    useChosenStore(server, { redis: (url) => useRedisCredentialStore({ url }), memory: createMemoryCredentialStore, embedded: (directory) => useEmbeddedCredentialStore({ directory }) })
  const { value: store, run } = await openForProcess(useStore)
  return createPersonalAccess({ store, secret: server.sessionSecret, run, appUrl: readAppUrl(env) })
}

/** `APP_URL`, the public origin the authorization servers send people back to. */
export function readAppUrl(env: Environment): URL {
  const text = env.APP_URL?.trim() || `http://localhost:${env.PORT?.trim() || '3000'}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`APP_URL must be the app's public origin, such as https://chat.example.com; got "${text}".`)
  }
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError(`APP_URL must be an origin only, such as https://chat.example.com (no path); got "${url.href}".`)
  return url
}
