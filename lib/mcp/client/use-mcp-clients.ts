import type { CallToolResult, ReadResourceResult, RequestOptions, Tool } from '@modelcontextprotocol/client'
import { resource, spawn, useScope, type Operation } from 'effection'
import { MCP_CONFIG_FILE, type McpServersConfig } from './mcp-servers-config'
import { DEFAULT_MCP_SERVER_TIMING, runMcpServer, type McpServerTiming } from './run-mcp-server'
import { McpServerConnection, type McpServerStatus } from './server-connection'
import { externalToolName } from './tool-names'
import type { PersonalAccess, UrlServerConfig } from './personal/personal-access'
import { createPersonalConnections, type PersonalServerInfo } from './personal/personal-connections'

/** One server as `GET /api/tools` lists it. */
export interface McpServerInfo {
  name: string
  /** `disabled`: its entry says `"disabled": true`, so it is not started. */
  status: McpServerStatus | 'disabled'
  error?: string
  /** For a server each person connects to on their own: how (`serversFor` says where this person stands). */
  connect?: PersonalServerInfo['connect']
}

/** One tool of a server that is up, with the name the chat knows it by. */
export interface ExternalToolInfo {
  /** `<server>__<tool>` */
  name: string
  server: string
  /** The tool as the server lists it: its own name, description, inputSchema, `_meta`. */
  tool: Tool
}

/** The app's connections to the servers of `mcp.json`: one per server, for the app's lifetime. */
export interface McpClients {
  servers(): McpServerInfo[]
  /** The tools of the servers that are up now. */
  tools(): ExternalToolInfo[]
  /** A server's tool by its own name (with its `_meta`, e.g. `_meta.ui.resourceUri`). */
  getTool(server: string, name: string): Tool | undefined
  /** A server's connection (its status, client and calls in flight). */
  connection(server: string): McpServerConnection | undefined
  /** Call a server's tool; `signal` cancels it (`notifications/cancelled`). */
  callTool(server: string, name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>
  /** Resolves when any server's status next changes, or when `signal` aborts. */
  changed(signal: AbortSignal): Promise<void>
  /** Read one of a server's resources (e.g. an MCP App's `ui://` HTML). */
  readResource(server: string, uri: string, options?: RequestOptions): Promise<ReadResourceResult>
  /** The servers as `person` sees them: a server that needs each person to connect has this person's status. */
  serversFor(person: string): Promise<McpServerInfo[]>
  /** A `url` server that needs each person to connect (`needs_connect`), by name. */
  personalServer(server: string): UrlServerConfig | undefined
  /** Every `url` and `sse` entry, whatever its state now: any of them may hold a person's credentials (a server down at sign-out still does). */
  urlServers(): UrlServerConfig[]
  /** The person's own connection to such a server, started if they have connected; undefined until they have. */
  personalConnection(server: string, person: string): Promise<McpServerConnection | undefined>
  /** End the person's own connection to a server (after Disconnect, or new values). */
  forgetPersonal(server: string, person: string): Promise<void>
  /** The tools of the person's own connections that run now (their servers that ask each person to connect). */
  personalTools(person: string): ExternalToolInfo[]
  /** The person's own connection to a server, if it runs now. */
  runningPersonal(server: string, person: string): McpServerConnection | undefined
}

export interface UseMcpClientsOptions {
  config: McpServersConfig
  timing?: Partial<McpServerTiming>
  /** Each person's credentials: without them, a server that asks each person to connect stays `needs_connect`. */
  personal?: PersonalAccess
}

/** Thrown when a call names a server that is not configured or not up. */
export class McpServerUnavailableError extends Error {
  override name = 'McpServerUnavailableError'
}

/**
 * Start every configured server and keep each connected (see `runMcpServer`) until the scope
 * ends, which closes them all. Entries `mcp.json` could not accept are listed as failed (their
 * errors name the file), and those it turns off as disabled.
 */
export function useMcpClients({ config, timing = {}, personal }: UseMcpClientsOptions): Operation<McpClients> {
  return resource(function* (provide) {
    const merged = { ...DEFAULT_MCP_SERVER_TIMING, ...timing }
    const connections = new Map<string, McpServerConnection>()
    for (const server of config.servers) {
      const connection = new McpServerConnection(server.name, server.approve)
      connections.set(server.name, connection)
      // Values each person enters: nothing to connect with for everyone.
      if (server.transport !== 'stdio' && server.userVariables) connection.needsConnect({})
      else yield* spawn(() => runMcpServer({ config: server, connection, timing: merged }))
    }
    const scope = yield* useScope()
    const personalConnections = personal && createPersonalConnections({ access: personal, scope, timing: merged })
    const personalServer = (server: string): UrlServerConfig | undefined => {
      const config_ = config.servers.find(({ name }) => name === server)
      return config_ && config_.transport !== 'stdio' && connections.get(server)?.status === 'needs_connect' ? config_ : undefined
    }
    const connectHow = (server: UrlServerConfig): PersonalServerInfo['connect'] =>
      server.userVariables ? { kind: 'variables', variables: server.userVariables } : { kind: 'oauth' }
    const file = config.path ?? MCP_CONFIG_FILE
    const invalid: McpServerInfo[] = config.invalid.map(({ name, error }) => ({ name, status: 'failed', error }))
    const disabled: McpServerInfo[] = (config.disabled ?? []).map((name) => ({ name, status: 'disabled' }))

    const ready = (server: string) => {
      const connection = connections.get(server)
      if (!connection) {
        throw new McpServerUnavailableError(
          disabled.some(({ name }) => name === server) ? `The MCP server "${server}" is disabled in ${file}.` : `There is no MCP server named "${server}" in ${file}.`,
        )
      }
      if (connection.status !== 'ready' || !connection.client) {
        throw new McpServerUnavailableError(
          `The MCP server "${server}" is ${connection.status === 'starting' ? 'still starting' : `down (${connection.error ?? 'failed'})`}.`,
        )
      }
      return connection.client
    }

    const servers = (): McpServerInfo[] => [
      ...[...connections.values()].map(({ name, status, error }) => {
        const personalConfig = status === 'needs_connect' ? personalServer(name) : undefined
        return { name, status, ...(error && status !== 'ready' ? { error } : {}), ...(personalConfig ? { connect: connectHow(personalConfig) } : {}) }
      }),
      ...invalid,
      ...disabled,
    ]

    const toolsOf = (connection: McpServerConnection): ExternalToolInfo[] =>
      connection.tools.flatMap((tool) => {
        const name = externalToolName({ server: connection.name, tool: tool.name })
        return name ? [{ name, server: connection.name, tool }] : []
      })

    yield* provide({
      servers,
      personalTools: (person) => personalConnections?.runningFor(person).flatMap(toolsOf) ?? [],
      runningPersonal: (server, person) => personalConnections?.running(server, person),
      async serversFor(person) {
        return Promise.all(
          servers().map(async (info) => {
            const server = info.status === 'needs_connect' ? personalServer(info.name) : undefined
            return server && personalConnections ? { name: info.name, ...(await personalConnections.info(server, person)) } : info
          }),
        )
      },
      personalServer,
      urlServers: () => config.servers.filter((server): server is UrlServerConfig => server.transport !== 'stdio'),
      async personalConnection(server, person) {
        const config_ = personalServer(server)
        return config_ && personalConnections ? personalConnections.connection(config_, person) : undefined
      },
      async forgetPersonal(server, person) {
        await personalConnections?.forget(server, person)
      },
      tools: () => [...connections.values()].flatMap(toolsOf),
      getTool: (server, name) => connections.get(server)?.tools.find((tool) => tool.name === name),
      connection: (server) => connections.get(server),
      changed: (signal) =>
        new Promise<void>((resolve) => {
          const unwatch = [...connections.values()].map((connection) => connection.watch(done))
          if (personalConnections) {
            personalConnections.watchers.add(done)
            unwatch.push(() => personalConnections.watchers.delete(done))
          }
          function done() {
            for (const stop of unwatch) stop()
            signal.removeEventListener('abort', done)
            resolve()
          }
          if (signal.aborted) done()
          else signal.addEventListener('abort', done, { once: true })
        }),
      callTool: async (server, name, args, options) => (await ready(server).callTool({ name, arguments: args }, options)) as CallToolResult,
      readResource: (server, uri, options) => ready(server).readResource({ uri }, options),
    })
  })
}
