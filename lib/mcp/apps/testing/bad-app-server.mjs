// An MCP server over stdio whose MCP Apps are broken on purpose, for the host's tests: each tool
// `<case>` has the app `ui://bad/<case>`, whose `resources/read` answers that case. One works:
// `context`, an app built on the official App SDK that tells the model the text of its input.
// Tools without an app: `plain` (may change things, as far as the host knows), `peek` (read-only),
// `model-only` (hidden from apps), `app-only` (hidden from the model).
//   node bad-app-server.mjs [hugeBytes]
import { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'
import { appWithSdk } from './inline-app-sdk.mjs'

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

/** An app built on the official App SDK: it tells the model the text of its input. */
function contextApp() {
  return appWithSdk({
    body: '<p id="status">connecting</p>',
    script: `const status = document.getElementById('status')
const app = new McpApps.App({ name: 'context-app', version: '1.0.0' }, {})
app.ontoolinput = async ({ arguments: args }) => {
  await app.updateModelContext({ content: [{ type: 'text', text: String(args?.text ?? '') }] })
  status.textContent = 'context sent: ' + args?.text
}
await app.connect()
status.textContent = 'connected'`,
  })
}
cases.context = () => ({ contents: [{ uri: 'ui://bad/context', mimeType: MIME, text: contextApp() }] })

const server = new McpServer({ name: 'bad-apps', version: '1.0.0' })
for (const [name, read] of Object.entries(cases)) {
  const uri = `ui://bad/${name}`
  const inputSchema = name === 'context' ? { inputSchema: z.object({ text: z.string() }) } : {}
  server.registerTool(name, { description: `An app whose resource is ${name}.`, ...inputSchema, _meta: { ui: { resourceUri: uri } } }, async () => ({
    content: [{ type: 'text', text: name }],
  }))
  server.registerResource(name, uri, { mimeType: MIME }, async () => read())
}
server.registerTool('plain', { description: 'No app.' }, async () => ({ content: [{ type: 'text', text: 'plain' }] }))
server.registerTool('peek', { description: 'Only reads.', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'peeked' }] }))
server.registerTool('model-only', { description: 'Hidden from apps.', _meta: { ui: { visibility: ['model'] } } }, async () => ({
  content: [{ type: 'text', text: 'secret' }],
}))
// Only for the apps of this server (like server-system-monitor's poll-system-stats): never the model's.
server.registerTool('app-only', { description: 'Polled by its app.', _meta: { ui: { visibility: ['app'] } } }, async () => ({
  content: [{ type: 'text', text: 'for the app' }],
}))
await server.connect(new StdioServerTransport())
