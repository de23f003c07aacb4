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
  return {
    list: () => clients.tools().map(externalOf),
    get(name) {
      const parts = splitExternalToolName(name)
      const tool = parts && clients.getTool(parts.server, parts.tool)
      return parts && tool ? externalOf({ name, server: parts.server, tool }) : undefined
    },
  }
}
