import type { Tool } from '@modelcontextprotocol/client'
import type { ExternalTool, ExternalToolSource } from '../../tools/external-tools'
import { createExternalTool } from './external-tool'
import { splitExternalToolName } from './tool-names'
import type { ExternalToolInfo, McpClients } from './use-mcp-clients'

/** The tools of the servers that are up, as the chat engine takes them (see `createExternalTool`). */
export function createServerToolSource({ clients, callTimeoutMs }: { clients: McpClients; callTimeoutMs?: number }): ExternalToolSource {
  // One chat tool per listed tool object: a server's new list (after a restart or a change) makes new ones.
  const made = new Map<string, { listed: Tool; external: ExternalTool }>()
  const externalOf = ({ name, server, tool }: ExternalToolInfo) => {
    const known = made.get(name)
    if (known?.listed === tool) return known.external
    const external = createExternalTool({ name, server, tool, clients, callTimeoutMs })
    made.set(name, { listed: tool, external })
    return external
  }
  // A person's own tools: one chat tool per listed tool object of their own connection, whose calls go through it alone.
  const personal = new WeakMap<Tool, ExternalTool>()
  const personalOf = ({ name, server, tool }: ExternalToolInfo, person: string) => {
    let external = personal.get(tool)
    if (!external) {
      external = createExternalTool({ name, server, tool, clients, callTimeoutMs, person })
      personal.set(tool, external)
    }
    return external
  }
  return {
    list: (person) => [...clients.tools().map(externalOf), ...(person === undefined ? [] : clients.personalTools(person).map((info) => personalOf(info, person)))],
    get(name, person) {
      const parts = splitExternalToolName(name)
      if (!parts) return undefined
      const tool = clients.getTool(parts.server, parts.tool)
      if (tool) return externalOf({ name, server: parts.server, tool })
      if (person === undefined || !clients.personalServer(parts.server)) return undefined
      const own = clients.runningPersonal(parts.server, person)?.tools.find((listed) => listed.name === parts.tool)
      if (own) return personalOf({ name, server: parts.server, tool: own }, person)
      // Not connected now (never, or not since a restart): the call asks the person to connect first, then finds the tool.
      return createExternalTool({ name, server: parts.server, tool: { name: parts.tool, inputSchema: { type: 'object' } }, clients, callTimeoutMs, person })
    },
  }
}
