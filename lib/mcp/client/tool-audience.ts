import { names, type Person } from '../../http'
import type { McpServersConfig } from './mcp-servers-config'

/**
 * Who may see and use an external MCP server's tools. Every place that lists or starts one asks
 * it: `GET /api/tools` (the tools and the servers), the tools offered to the model for a turn, a
 * slash command or an answer naming one (403 `tool_not_allowed`), an MCP App of that server.
 */
export interface ToolAudience {
  /** Whether `person` (undefined: nobody signed in) may see and use the tools of the server named `server`. */
  admits(server: string, person: Person | undefined): boolean
}

/** Without sign-in the browser is the person, and every tool is theirs. */
export const EVERYONE: ToolAudience = { admits: () => true }

/**
 * The audience `mcp.json` gives each server once sign-in is configured (`signIn`): the people
 * its entry's `users` names (addresses, `@domain`s, `group:`s), and every admin. Without
 * `users`, a stdio server is for admins only — it runs here with the server's own rights (a
 * filesystem server reads what the app can read) — and a URL server for everyone signed in (it
 * runs elsewhere, with the rights its headers carry). An entry `mcp.json` could not accept, or
 * one it turns off, is for admins only: nobody else has a use for its name or its error. A
 * request with no person (none signed in) gets no external tool. Without sign-in, `EVERYONE`:
 * `users` is checked in the file all the same, and ignored.
 */
export function createToolAudience({ config, signIn }: { config: Pick<McpServersConfig, 'servers'>; signIn: boolean }): ToolAudience {
  if (!signIn) return EVERYONE
  const servers = new Map(config.servers.map((server) => [server.name, server]))
  return {
    admits(name, person) {
      if (!person) return false
      if (person.isAdmin) return true
      const server = servers.get(name)
      if (!server) return false
      if (server.users) return names(server.users, person)
      return server.transport !== 'stdio'
    },
  }
}
