import { createRequire } from 'node:module'
import path from 'node:path'
import { Client, InMemoryTransport, type Tool } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { McpServer } from '@modelcontextprotocol/server'
import type { AppResourceSource } from '../app-resource-source'

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

/**
 * A real (in-process) server whose app resources are broken on purpose: each tool `<case>`
 * names `ui://bad/<case>`, whose `resources/read` answers that case.
 */
export async function connectBadAppServer({ hugeBytes = 5 * 1024 * 1024 } = {}): Promise<Client> {
  const server = new McpServer({ name: 'bad-apps', version: '1.0.0' })
  const cases: Record<string, () => { contents: Array<Record<string, unknown>> }> = {
    'wrong-mime': () => ({ contents: [{ uri: 'ui://bad/wrong-mime', mimeType: 'text/html', text: '<p>plain html</p>' }] }),
    'no-entry': () => ({ contents: [{ uri: 'ui://bad/somewhere-else', mimeType: 'text/html;profile=mcp-app', text: '<p>other</p>' }] }),
    huge: () => ({ contents: [{ uri: 'ui://bad/huge', mimeType: 'text/html;profile=mcp-app', text: 'x'.repeat(hugeBytes) }] }),
    'bad-csp': () => ({
      contents: [
        {
          uri: 'ui://bad/bad-csp',
          mimeType: 'text/html;profile=mcp-app',
          text: '<p>csp</p>',
          _meta: { ui: { csp: { connectDomains: ["https://ok.example.com; script-src 'unsafe-eval'"] } } },
        },
      ],
    }),
    declared: () => ({
      contents: [
        {
          uri: 'ui://bad/declared',
          mimeType: 'text/html;profile=mcp-app',
          blob: Buffer.from('<p>from a blob</p>').toString('base64'),
          _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }, prefersBorder: true } },
        },
      ],
    }),
  }
  for (const [name, read] of Object.entries(cases)) {
    const uri = `ui://bad/${name}`
    server.registerTool(name, { description: `An app whose resource is ${name}.`, _meta: { ui: { resourceUri: uri } } }, async () => ({
      content: [{ type: 'text', text: name }],
    }))
    server.registerResource(name, uri, { mimeType: 'text/html;profile=mcp-app' }, async () => read() as never)
  }
  server.registerTool('plain', { description: 'No app.' }, async () => ({ content: [{ type: 'text', text: 'plain' }] }))
  server.registerTool('model-only', { description: 'Hidden from apps.', _meta: { ui: { visibility: ['model'] } } }, async () => ({
    content: [{ type: 'text', text: 'secret' }],
  }))
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'mcp-apps-test', version: '1.0.0' })
  await client.connect(clientSide)
  return client
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
