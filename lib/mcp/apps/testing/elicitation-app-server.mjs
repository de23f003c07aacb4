// A small MCP server over stdio whose tool asks an app-rendered elicitation (SEP-3118, draft), for
// the chat's tests as a host of them: `reserve_table` asks which table and for how many, as a form
// question carrying `_meta.ui.resourceUri`, and says what it was answered.
//   node elicitation-app-server.mjs [--no-advertise]
//
// Its argument `app` picks the app the question names (all under `ui://tables/`):
//   picker          works: renders the question, answers what the person picks (the default)
//   no-elicitation  an app that never says it answers questions (no `appCapabilities.elicitation`)
//   off-schema      says it does, but answers a table that is not offered, for too many guests
//   silent          its script fails before it says anything: it never completes `ui/initialize`
//   missing         no such resource: `resources/read` fails
// The hint goes only to a client that declared `extensions["io.modelcontextprotocol/ui"].elicitation`
// (and `elicitation.form`), as the SEP says; the server advertises the same member. With
// `--no-advertise` it does not, but attaches the hint anyway (a server that misbehaves): a host
// must then ignore it. `client_capabilities` says what the client declared, as JSON.
import { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'

const MIME = 'text/html;profile=mcp-app'
const EXTENSION = 'io.modelcontextprotocol/ui'
const advertise = !process.argv.includes('--no-advertise')

const TABLES = [
  { const: 'T1', title: 'T1 · by the window · 2 seats' },
  { const: 'T2', title: 'T2 · on the terrace · 4 seats' },
  { const: 'T3', title: 'T3 · by the bar · 6 seats' },
]

const requestedSchema = {
  type: 'object',
  properties: {
    table: { type: 'string', title: 'Table', oneOf: TABLES },
    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 6 },
  },
  required: ['table', 'guests'],
}

/**
 * The app's page: plain HTML and a script that speaks the MCP Apps bridge (JSON-RPC over
 * `postMessage` with the window that framed it) by hand, so nothing but the wire is assumed.
 * `kind` is one of the apps above; `missing` has none.
 */
function appHtml(kind) {
  const config = JSON.stringify({ kind, declares: kind !== 'no-elicitation', offSchema: kind === 'off-schema', silent: kind === 'silent' })
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 12px; color: #18181b; background: #fff }
  body.dark { color: #f4f4f5; background: #09090b }
  button { font: inherit; padding: 6px 10px; margin: 2px; border-radius: 6px; border: 1px solid #a1a1aa; background: transparent; color: inherit; cursor: pointer }
  button[aria-pressed=true] { background: #0369a1; color: #fff; border-color: #0369a1 }
  #reserve { background: #15803d; color: #fff; border-color: #15803d }
</style></head>
<body>
<p id="status">Connecting to the chat…</p>
<div id="question" hidden>
  <h1 id="message" style="font-size:16px;margin:0 0 8px"></h1>
  <div id="tables" role="group" aria-label="Tables"></div>
  <p><label>Guests <input id="guests" type="number" min="1" max="6" value="2"></label></p>
  <button id="reserve" type="button">Reserve</button>
  <button id="decline" type="button">No, thanks</button>
</div>
<script>
const app = ${config}
const host = window.parent
let nextId = 1
const waiting = new Map()
let question

function send(message) { host.postMessage({ jsonrpc: '2.0', ...message }, '*') }
function request(method, params) {
  const id = nextId++
  send({ id, method, params })
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
}
function reportSize() { send({ method: 'ui/notifications/size-changed', params: { width: document.body.scrollWidth, height: document.documentElement.scrollHeight } }) }

window.addEventListener('message', (event) => {
  if (event.source !== host) return
  const message = event.data
  if (!message || message.jsonrpc !== '2.0') return
  if (message.method === 'elicitation/create') return showQuestion(message.id, message.params)
  if (message.method === 'ui/resource-teardown') {
    console.log('elicitation app: torn down')
    return send({ id: message.id, result: {} })
  }
  if (message.method === 'ui/notifications/host-context-changed') return theme(message.params)
  if (message.id !== undefined && message.method === undefined && waiting.has(message.id)) {
    const { resolve, reject } = waiting.get(message.id)
    waiting.delete(message.id)
    if (message.error) reject(new Error(message.error.message))
    else resolve(message.result)
  } else if (message.id !== undefined && message.method) {
    send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } })
  }
})

function theme(context) { if (context && context.theme) document.body.classList.toggle('dark', context.theme === 'dark') }

function showQuestion(id, params) {
  question = { id, params }
  document.getElementById('status').textContent = 'Asked by the server:'
  document.getElementById('message').textContent = params.message
  const tables = document.getElementById('tables')
  tables.replaceChildren()
  let chosen
  for (const option of params.requestedSchema.properties.table.oneOf) {
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = option.title
    button.setAttribute('aria-pressed', 'false')
    button.onclick = () => {
      chosen = option.const
      for (const other of tables.children) other.setAttribute('aria-pressed', String(other === button))
    }
    tables.append(button)
  }
  document.getElementById('reserve').onclick = () => {
    const guests = Number(document.getElementById('guests').value)
    const content = app.offSchema ? { table: 'T9', guests: 40 } : { table: chosen, guests }
    send({ id, result: { action: 'accept', content } })
    document.getElementById('status').textContent = 'Answered.'
  }
  document.getElementById('decline').onclick = () => send({ id, result: { action: 'decline' } })
  document.getElementById('question').hidden = false
  reportSize()
}

if (app.silent) throw new Error('elicitation app: broken on purpose')
request('ui/initialize', {
  appInfo: { name: 'tables-' + app.kind, version: '1.0.0' },
  appCapabilities: app.declares ? { elicitation: {} } : {},
  protocolVersion: '2026-01-26',
}).then((result) => {
  theme(result.hostContext)
  console.log('elicitation app: host capabilities ' + JSON.stringify(result.hostCapabilities))
  document.getElementById('status').textContent = app.declares ? 'Waiting for the question…' : 'This app only shows tables; it answers no questions.'
  send({ method: 'ui/notifications/initialized', params: {} })
  reportSize()
})
</script>
</body></html>`
}

const server = new McpServer(
  { name: 'tables', version: '1.0.0' },
  { capabilities: advertise ? { extensions: { [EXTENSION]: { elicitation: {} } } } : {} },
)

/** Whether this client takes app-rendered questions: forms, MCP Apps of our type, and the extension's `elicitation`. */
function showsApps(capabilities) {
  const ui = capabilities?.extensions?.[EXTENSION]
  return Boolean(capabilities?.elicitation?.form && ui?.elicitation && Array.isArray(ui.mimeTypes) && ui.mimeTypes.includes(MIME))
}

server.registerTool(
  'reserve_table',
  {
    description: 'Reserves a table for tonight, asking which one and for how many in the restaurant’s own app.',
    inputSchema: z.object({ app: z.enum(['picker', 'no-elicitation', 'off-schema', 'silent', 'missing']).optional() }),
  },
  async ({ app = 'picker' }, ctx) => {
    const withApp = showsApps(server.server.getClientCapabilities()) || !advertise
    const answer = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Which table would you like tonight?',
      requestedSchema,
      ...(withApp ? { _meta: { ui: { resourceUri: `ui://tables/${app}` } } } : {}),
    })
    const text =
      answer.action === 'accept' ? `Reserved ${answer.content?.table} for ${answer.content?.guests} guests.` : `No table was reserved (${answer.action}).`
    return { content: [{ type: 'text', text }] }
  },
)

server.registerTool('client_capabilities', { description: 'Says what the client declared in initialize, as JSON.' }, async () => ({
  content: [{ type: 'text', text: JSON.stringify(server.server.getClientCapabilities() ?? {}) }],
}))

for (const kind of ['picker', 'no-elicitation', 'off-schema', 'silent']) {
  const uri = `ui://tables/${kind}`
  server.registerResource(`tables-${kind}`, uri, { mimeType: MIME }, async () => ({ contents: [{ uri, mimeType: MIME, text: appHtml(kind) }] }))
}

await server.connect(new StdioServerTransport())
