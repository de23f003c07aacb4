import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createChatServer } from '../../engine/chat-server'
import { createChatTestClient, eventsOf } from '../../engine/testing/chat-test-client'
import { createOfflineModel } from '../../models'
import { createMemorySessionStore } from '../../sessions'
import { createServerToolSource } from './server-tool-source'
import { parseMcpServers, type McpServerConfig } from './mcp-servers-config'
import { startMcpClients } from './start-mcp-clients'
import { freePort, startEverythingHttpServer, type EverythingHttpServer } from './testing/everything-http-server'
import { startRecordingProxy, type RecordingProxy } from './testing/recording-proxy'

// `url` servers as `mcp.json` names them, reached over real HTTP: server-everything in its
// Streamable HTTP mode, behind a proxy that notes the headers each request arrives with.
const FAST = { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 400 }
const WAIT = { timeout: 20_000 }

let everything: EverythingHttpServer
let proxy: RecordingProxy
beforeAll(async () => {
  everything = await startEverythingHttpServer()
  proxy = await startRecordingProxy({ target: everything.url })
}, 30_000)
afterAll(async () => {
  await proxy?.close()
  await everything?.stop()
})

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/** The servers of an `mcp.json` document, read as the app reads the file. */
function fromMcpJson(mcpServers: Record<string, unknown>): McpServerConfig[] {
  const { servers, invalid } = parseMcpServers({ data: { mcpServers }, file: path.join(process.cwd(), 'mcp.json') })
  expect(invalid).toEqual([])
  return servers
}

async function start(servers: McpServerConfig[]) {
  const started = await startMcpClients({ config: { servers, invalid: [] }, timing: FAST })
  closing.push(started.close)
  return started.clients
}

describe('url servers (Streamable HTTP)', { timeout: 60_000 }, () => {
  it('connects with its headers on every request, lists its tools, and a slash command calls one', async () => {
    const clients = await start(fromMcpJson({ remote: { url: `${proxy.origin}/mcp`, headers: { 'X-Test': '1' } } }))
    await expect.poll(() => clients.servers(), WAIT).toEqual([{ name: 'remote', status: 'ready' }])
    // Its elicitation and sampling tools exist only for a client that declares those capabilities.
    await expect
      .poll(() => clients.tools().map((tool) => tool.name), WAIT)
      .toEqual(expect.arrayContaining(['remote__echo', 'remote__trigger-elicitation-request', 'remote__trigger-sampling-request', 'remote__trigger-long-running-operation']))

    const chat = await createChatServer({
      model: createOfflineModel({ delayMs: 0 }),
      tools: [],
      externalTools: createServerToolSource({ clients }),
      secret: 'a-secret-for-this-test',
      // eslint-disable-next-line require-yield
      useStore: function* () {
        return createMemorySessionStore()
      },
    })
    closing.push(() => chat.close())
    expect(chat.listTools()).toContainEqual({ name: 'remote__echo', description: expect.stringContaining('Echo'), source: 'mcp:remote' })
    const browser = createChatTestClient({ chat })
    const turn = await browser.post({ messages: [{ role: 'user', content: '/remote__echo {"message":"over http"}' }], directToolCall: { name: 'remote__echo', arguments: { message: 'over http' } } })
    expect(eventsOf(turn.events, 'tool_calls')[0]!.calls[0]).toMatchObject({ name: 'remote__echo', external: { server: 'remote', tool: 'echo' } })
    expect(JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)).toEqual({ content: [{ type: 'text', text: 'Echo: over http' }] })

    // initialize, its notification, tools/list, tools/call (POST); the server's own stream (GET).
    const methods = new Set(proxy.requests.map((request) => request.method))
    expect(methods).toEqual(new Set(['POST', 'GET']))
    expect(proxy.requests.length).toBeGreaterThanOrEqual(4)
    for (const request of proxy.requests) expect(request.headers['x-test'], `${request.method} ${JSON.stringify(request.headers)}`).toBe('1')

    // Stopped, the app tells the server that its session is over.
    const session = proxy.requests.at(-1)!.headers['mcp-session-id']
    expect(session).toEqual(expect.any(String))
    for (const close of closing.splice(0).reverse()) await close()
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'x-test': '1', 'mcp-session-id': session } })
  })

  it('a url server with nothing listening is failed with why, tried again with back-off, and harms no other server', async () => {
    const nothing = await freePort()
    const began = Date.now()
    const clients = await start(
      fromMcpJson({
        gone: { url: `http://127.0.0.1:${nothing}/mcp` },
        remote: { url: everything.url },
      }),
    )
    await expect.poll(() => clients.connection('gone')!.restarts, WAIT).toBeGreaterThanOrEqual(3)
    // Three waits before the third restart, doubling from 50 ms: at least 50 + 100 + 200.
    expect(Date.now() - began).toBeGreaterThanOrEqual(350)
    const gone = clients.servers().find((server) => server.name === 'gone')!
    expect(gone.status).not.toBe('ready')
    expect(clients.connection('gone')!.error).toMatch(new RegExp(`could not be reached: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${nothing}`))
    await expect.poll(() => clients.servers().find((server) => server.name === 'remote')!.status, WAIT).toBe('ready')
    expect((await clients.callTool('remote', 'echo', { message: 'still here' })).content).toEqual([{ type: 'text', text: 'Echo: still here' }])
    await expect(clients.callTool('gone', 'echo', {})).rejects.toThrow(/MCP server "gone" is (down|still starting)/)
  })

  it('a url server that goes away is failed with why and its tools are dropped; back, it is connected again', async () => {
    const own = await startEverythingHttpServer()
    closing.push(() => own.stop())
    const clients = await start(fromMcpJson({ remote: { url: own.url } }))
    await expect.poll(() => clients.servers(), WAIT).toEqual([{ name: 'remote', status: 'ready' }])

    await own.stop()
    // Noticed without any call: the server's event stream ends and cannot be re-opened.
    await expect.poll(() => clients.connection('remote')!.error, WAIT).toMatch(new RegExp(`connection was lost: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${own.port}`))
    expect(clients.tools()).toEqual([])
    await expect(clients.callTool('remote', 'echo', { message: 'x' })).rejects.toThrow(/MCP server "remote" is (down|still starting)/)

    await own.restart()
    await expect.poll(() => clients.servers(), WAIT).toEqual([{ name: 'remote', status: 'ready' }])
    expect(clients.connection('remote')!.restarts).toBeGreaterThanOrEqual(1)
    expect((await clients.callTool('remote', 'echo', { message: 'back' })).content).toEqual([{ type: 'text', text: 'Echo: back' }])
  })
})

describe("VS Code's servers in mcp.json", { timeout: 60_000 }, () => {
  it('connects a "type": "sse" server over HTTP+SSE with its headers, and an "http" one over Streamable HTTP', async () => {
    const sse = await startEverythingHttpServer({ transport: 'sse' })
    closing.push(() => sse.stop())
    const sseProxy = await startRecordingProxy({ target: sse.url })
    closing.push(() => sseProxy.close())
    const { servers, invalid } = parseMcpServers({
      file: path.join(process.cwd(), '.vscode', 'mcp.json'),
      data: {
        servers: {
          legacy: { type: 'sse', url: `${sseProxy.origin}/sse`, headers: { 'X-Test': 'sse' } },
          remote: { type: 'http', url: everything.url },
        },
      },
    })
    expect(invalid).toEqual([])
    const clients = await start(servers)
    await expect.poll(() => clients.servers(), WAIT).toEqual([
      { name: 'legacy', status: 'ready' },
      { name: 'remote', status: 'ready' },
    ])
    expect((await clients.callTool('legacy', 'echo', { message: 'over sse' })).content).toEqual([{ type: 'text', text: 'Echo: over sse' }])
    expect((await clients.callTool('remote', 'echo', { message: 'over http' })).content).toEqual([{ type: 'text', text: 'Echo: over http' }])
    // The event stream (GET /sse) and the messages (POST /message?sessionId=…), each with the headers.
    expect(new Set(sseProxy.requests.map((request) => request.method))).toEqual(new Set(['GET', 'POST']))
    for (const request of sseProxy.requests) expect(request.headers['x-test'], `${request.method} ${JSON.stringify(request.headers)}`).toBe('sse')
  })
})
