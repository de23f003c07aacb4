import type { Scope, Task } from 'effection'
import { runMcpServer, type McpServerTiming } from '../run-mcp-server'
import { McpServerConnection } from '../server-connection'
import type { PersonalAccess, UrlServerConfig } from './personal-access'

/** A person's own view of a server that needs each person to connect. */
export interface PersonalServerInfo {
  /** `needs_connect` until the person has connected (or entered the entry's userVariables); then their own connection's status. */
  status: McpServerConnection['status']
  error?: string
  /** How the person connects: an OAuth authorization, or values they enter (`userVariables`, with their titles). */
  connect: { kind: 'oauth' } | { kind: 'variables'; variables: Record<string, { title: string; description?: string }> }
}

/**
 * Each person's own connection to each server that needs one: made when they have connected,
 * in the scope of the app's connections (so it ends with them), with their headers and their
 * token; never shared with anyone else. Halted when they disconnect.
 */
export interface PersonalConnections {
  /** The person's connection to `server`, started if they have what it needs; undefined while they must connect first. */
  connection(server: UrlServerConfig, person: string): Promise<McpServerConnection | undefined>
  /** How `server` is for `person`, starting their connection if they have connected. */
  info(server: UrlServerConfig, person: string): Promise<PersonalServerInfo>
  /** The person's connection to `server` if it runs now (synchronous: for the tools offered to the model). */
  running(server: string, person: string): McpServerConnection | undefined
  /** Every running connection of the person's. */
  runningFor(person: string): McpServerConnection[]
  /** End and forget the person's connection (after Disconnect, or new values). */
  forget(server: string, person: string): Promise<void>
  /** Told at every change of any personal connection's status. */
  watchers: Set<() => void>
}

export function createPersonalConnections({ access, scope, timing }: { access: PersonalAccess; scope: Scope; timing: McpServerTiming }): PersonalConnections {
  const running = new Map<string, { connection: McpServerConnection; task: Task<never>; person: string }>()
  const watchers = new Set<() => void>()
  const keyOf = (server: string, person: string) => `${server}\u0000${person}`

  async function connection(server: UrlServerConfig, person: string): Promise<McpServerConnection | undefined> {
    const key = keyOf(server.name, person)
    const known = running.get(key)
    if (known) return known.connection
    const headers = await access.headers(person, server)
    if (!headers) return undefined
    if (!server.userVariables && !(await access.oauth.connected({ person, server: server.name }))) return undefined
    // Another request may have started it while this one read the store.
    const raced = running.get(key)
    if (raced) return raced.connection
    const made = new McpServerConnection(server.name, server.approve)
    made.watch(() => {
      for (const watcher of [...watchers]) watcher()
    })
    const authProvider = server.userVariables && !server.oauth ? undefined : access.authProvider(person, server)
    const task = scope.run(() => runMcpServer({ config: { ...server, headers }, connection: made, timing, ...(authProvider ? { authProvider } : {}) }))
    running.set(key, { connection: made, task, person })
    return made
  }

  return {
    connection,
    watchers,
    running: (server, person) => running.get(keyOf(server, person))?.connection,
    runningFor: (person) => [...running.values()].filter((entry) => entry.person === person).map((entry) => entry.connection),
    async info(server, person) {
      const connect: PersonalServerInfo['connect'] = server.userVariables ? { kind: 'variables', variables: server.userVariables } : { kind: 'oauth' }
      const own = await connection(server, person)
      if (!own) return { status: 'needs_connect', connect }
      return { status: own.status, ...(own.error && own.status === 'failed' ? { error: own.error } : {}), connect }
    },
    async forget(server, person) {
      const key = keyOf(server, person)
      const known = running.get(key)
      running.delete(key)
      await known?.task.halt()
      for (const watcher of [...watchers]) watcher()
    },
  }
}
