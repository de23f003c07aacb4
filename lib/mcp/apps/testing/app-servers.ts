import { createRequire } from 'node:module'
import path from 'node:path'
import { Client, type Tool } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { AppResourceSource } from '../app-resource-source'
import { BAD_APP_SERVER } from './bad-app-server-path'

const require = createRequire(import.meta.url)

/** `node <server-basic-react>/dist/index.js --stdio`: the published MCP Apps example server. */
export function basicReactServer(): { command: string; args: string[] } {
  // Its package exports only the library entry (dist/server.js); the CLI sits beside it.
  const main = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-basic-react')), 'index.js')
  return { command: process.execPath, args: [main, '--stdio'] }
}

export async function connectStdio(server: { command: string; args: string[] }): Promise<Client> {
  const client = new Client({ name: 'mcp-apps-test', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }))
  return client
}


/** `node bad-app-server.mjs`: a server whose apps are broken on purpose (see the file). */
export function badAppServer(): { command: string; args: string[] } {
  return { command: process.execPath, args: [BAD_APP_SERVER] }
}

/** An `AppResourceSource` over SDK clients, by server name (what the connection manager does for real). */
export function createClientSource(clients: Record<string, Client>): AppResourceSource {
  const clientOf = (server: string) => {
    const client = clients[server]
    if (!client) throw new Error(`no server named "${server}"`)
    return client
  }
  return {
    async getTool({ server, name }): Promise<Tool | undefined> {
      const { tools } = await clientOf(server).listTools()
      return tools.find((tool) => tool.name === name)
    },
    readResource: ({ server, uri, signal }) => clientOf(server).readResource({ uri }, { signal }),
    callTool: async ({ server, name, arguments: args, signal }) => (await clientOf(server).callTool({ name, arguments: args }, { signal })) as never,
  }
}
