// A small MCP server over stdio that misbehaves on purpose, for the client's tests:
//   node fault-server.mjs exit       exits at once (code 3), saying why on stderr
//   node fault-server.mjs hang       never answers initialize
//   node fault-server.mjs slow <ms>  serves as below, but reads nothing for <ms> first (a slow start)
//   node fault-server.mjs gated <file>  serves as below, but reads nothing until <file> exists (a start the test ends)
//   node fault-server.mjs serve      answers, with tools that misbehave:
//     malformed   a result that is not a CallToolResult
//     huge        a text block of `bytes` characters (default 2 MB)
//     crash       the process exits in the middle of the call
//     pid         the process id, as text
//     fails       a result with isError: true
//     wait        answers only when the client cancels it (notifications/cancelled)
//     cancelled   how many calls the client has cancelled so far, as text
//     bump        adds one to the counter named `key` and says its new value (a write tool: no annotations)
//     peek        says the counter named `key` (readOnlyHint: true)
//     wipe        sets the counter named `key` to 0 (readOnlyHint and destructiveHint both true)
//     url-required  answers -32042 (URL elicitation required) to its first `times` calls with a
//                 given `key`, with `data` if given, else two url-mode elicitations; then says
//                 how many calls it took, as text
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { existsSync, watch } from 'node:fs'
import path from 'node:path'

const mode = process.argv[2] ?? 'serve'

if (mode === 'exit') {
  process.stderr.write('fault-server: told to exit at once\n')
  process.exit(3)
} else if (mode === 'hang') {
  process.stderr.write('fault-server: hanging\n')
  // Reads every request and answers none; ends when its stdin does.
  process.stdin.resume()
  process.stdin.on('end', () => process.exit(0))
} else {
  const server = new Server({ name: 'fault-server', version: '1.0.0' }, { capabilities: { tools: {} } })
  const object = { type: 'object', properties: {} }
  let cancelled = 0
  const urlCalls = new Map()
  const counters = new Map()
  const keyed = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'malformed', description: 'Returns a result that is not a CallToolResult.', inputSchema: object },
      { name: 'huge', description: 'Returns one very large text block.', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } },
      { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: object },
      { name: 'pid', description: 'Says its process id.', inputSchema: object },
      { name: 'fails', description: 'Reports an error in its result.', inputSchema: object },
      { name: 'wait', description: 'Waits until the call is cancelled.', inputSchema: object },
      { name: 'cancelled', description: 'Counts the calls cancelled so far.', inputSchema: object },
      { name: 'bump', description: 'Adds one to a counter.', inputSchema: keyed },
      { name: 'peek', description: 'Says what a counter is at.', inputSchema: keyed, annotations: { readOnlyHint: true } },
      { name: 'wipe', description: 'Sets a counter back to 0.', inputSchema: keyed, annotations: { readOnlyHint: true, destructiveHint: true } },
      {
        name: 'url-required',
        description: 'Answers -32042 (URL elicitation required) to its first `times` calls with a key.',
        inputSchema: { type: 'object', properties: { key: { type: 'string' }, times: { type: 'integer' }, data: {} } },
      },
    ],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    switch (request.params.name) {
      case 'malformed':
        return { content: 'this should be an array', isError: 'no' }
      case 'huge':
        return { content: [{ type: 'text', text: 'x'.repeat(Number(request.params.arguments?.bytes ?? 2_000_000)) }] }
      case 'crash':
        setTimeout(() => process.exit(7), 10)
        return await new Promise(() => {})
      case 'pid':
        return { content: [{ type: 'text', text: String(process.pid) }] }
      case 'wait':
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }))
        cancelled++
        return { content: [{ type: 'text', text: 'cancelled' }] }
      case 'cancelled':
        return { content: [{ type: 'text', text: String(cancelled) }] }
      case 'url-required': {
        const { key = '', times = 1, data } = request.params.arguments ?? {}
        const calls = (urlCalls.get(key) ?? 0) + 1
        urlCalls.set(key, calls)
        if (calls <= times) {
          throw new McpError(
            ErrorCode.UrlElicitationRequired,
            'Open these links first.',
            data ?? {
              elicitations: [
                { mode: 'url', elicitationId: `${key}-a-${calls}`, url: 'https://auth.example.com/connect?step=a', message: 'Connect your account.' },
                { mode: 'url', elicitationId: `${key}-b-${calls}`, url: 'http://localhost:9/consent', message: 'Give your consent.' },
              ],
            },
          )
        }
        return { content: [{ type: 'text', text: `called ${calls} times` }] }
      }
      case 'bump':
      case 'peek':
      case 'wipe': {
        const key = String(request.params.arguments?.key ?? '')
        const value = request.params.name === 'bump' ? (counters.get(key) ?? 0) + 1 : request.params.name === 'wipe' ? 0 : (counters.get(key) ?? 0)
        counters.set(key, value)
        return { content: [{ type: 'text', text: String(value) }] }
      }
      case 'fails':
        return { content: [{ type: 'text', text: 'The disk is full.' }], isError: true }
      default:
        return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true }
    }
  })
  // A slow start: initialize waits unread in the pipe until the server gets round to it.
  if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, Number(process.argv[3] ?? 2_000)))
  if (mode === 'gated') await fileExists(process.argv[3])
  await server.connect(new StdioServerTransport())
}

/** Resolves once `file` exists, watching its directory (no polling). */
function fileExists(file) {
  return new Promise((resolve) => {
    const watcher = watch(path.dirname(file), () => {
      if (!existsSync(file)) return
      watcher.close()
      resolve()
    })
    if (existsSync(file)) {
      watcher.close()
      resolve()
    }
  })
}
