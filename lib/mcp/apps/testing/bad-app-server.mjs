// An MCP server over stdio whose MCP Apps are broken on purpose, for the host's tests: each tool
// `<case>` has the app `ui://bad/<case>`, whose `resources/read` answers that case.
//   node bad-app-server.mjs [hugeBytes]
import { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'

const MIME = 'text/html;profile=mcp-app'
const hugeBytes = Number(process.argv[2] ?? 5 * 1024 * 1024)

const cases = {
  'wrong-mime': () => ({ contents: [{ uri: 'ui://bad/wrong-mime', mimeType: 'text/html', text: '<p>plain html</p>' }] }),
  'no-entry': () => ({ contents: [{ uri: 'ui://bad/somewhere-else', mimeType: MIME, text: '<p>other</p>' }] }),
  huge: () => ({ contents: [{ uri: 'ui://bad/huge', mimeType: MIME, text: 'x'.repeat(hugeBytes) }] }),
  'bad-csp': () => ({
    contents: [{ uri: 'ui://bad/bad-csp', mimeType: MIME, text: '<p>csp</p>', _meta: { ui: { csp: { connectDomains: ["https://ok.example.com; script-src 'unsafe-eval'"] } } } }],
  }),
  declared: () => ({
    contents: [
      {
        uri: 'ui://bad/declared',
        mimeType: MIME,
        blob: Buffer.from('<p>from a blob</p>').toString('base64'),
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }, prefersBorder: true } },
      },
    ],
  }),
}

const server = new McpServer({ name: 'bad-apps', version: '1.0.0' })
for (const [name, read] of Object.entries(cases)) {
  const uri = `ui://bad/${name}`
  server.registerTool(name, { description: `An app whose resource is ${name}.`, _meta: { ui: { resourceUri: uri } } }, async () => ({
    content: [{ type: 'text', text: name }],
  }))
  server.registerResource(name, uri, { mimeType: MIME }, async () => read())
}
server.registerTool('plain', { description: 'No app.' }, async () => ({ content: [{ type: 'text', text: 'plain' }] }))
server.registerTool('model-only', { description: 'Hidden from apps.', _meta: { ui: { visibility: ['model'] } } }, async () => ({
  content: [{ type: 'text', text: 'secret' }],
}))
await server.connect(new StdioServerTransport())
