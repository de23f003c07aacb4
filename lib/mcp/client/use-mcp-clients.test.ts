import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { backoffDelay, DEFAULT_MCP_SERVER_TIMING } from './run-mcp-server'
import { startMcpClients } from './start-mcp-clients'
import { parseMcpServers, readMcpServersConfig, type McpServerConfig } from './mcp-servers-config'
import { serverStatusKey, waitForStatusChange } from './server-status'
import { everythingServer, faultServer } from './testing/servers'

// Quick restarts; a generous initialize time-out, since a loaded machine starts node slowly
// (the hanging server's test has a short one of its own).
const FAST = { initializeTimeoutMs: 15_000, backoffMs: 50, maxBackoffMs: 400 }
const WAIT = { timeout: 20_000 }
let close: (() => Promise<void>) | undefined

afterEach(async () => {
  await close?.()
  close = undefined
})

function stdio(name: string, server: { command: string; args: string[] }): McpServerConfig {
  return { name, transport: 'stdio', env: {}, ...server }
}

async function start(servers: McpServerConfig[], invalid: Array<{ name: string; error: string }> = [], timing = FAST, more: { path?: string; disabled?: string[] } = {}) {
  const started = await startMcpClients({ config: { servers, invalid, ...more }, timing })
  close = started.close
  return started.clients
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('external MCP servers', { timeout: 60_000 }, () => {
  it('allow 30 s for initialize by default', () => {
    expect(DEFAULT_MCP_SERVER_TIMING.initializeTimeoutMs).toBe(30_000)
  })

  it('wait longer after each failure in a row before starting again, up to a limit', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((failures) => backoffDelay(DEFAULT_MCP_SERVER_TIMING, failures))).toEqual([1_000, 2_000, 4_000, 8_000, 60_000, 60_000, 60_000])
  })

  it('connects to server-everything and lists its tools, those it adds after initialize too', async () => {
    const clients = await start([stdio('everything', everythingServer())])
    expect(clients.servers()).toEqual([{ name: 'everything', status: 'starting' }])
    await expect.poll(() => clients.servers()[0]!.status, WAIT).toBe('ready')
    // Its elicitation and sampling tools exist only for a client that declares those capabilities.
    await expect
      .poll(() => clients.tools().map((tool) => tool.name), WAIT)
      .toEqual(expect.arrayContaining(['everything__echo', 'everything__trigger-elicitation-request', 'everything__trigger-sampling-request', 'everything__trigger-long-running-operation']))
    expect(clients.getTool('everything', 'echo')?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } })
    const result = await clients.callTool('everything', 'echo', { message: 'hi' })
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }])
  })

  it('a server that exits at once is failed with its exit code and stderr, and restarted with back-off', async () => {
    const clients = await start([stdio('broken', faultServer('exit')), stdio('everything', everythingServer())], [{ name: 'typo', error: '/srv/app/mcp.json: command: required' }])
    await expect.poll(() => clients.connection('broken')!.restarts, WAIT).toBeGreaterThanOrEqual(3)
    const broken = clients.servers().find((server) => server.name === 'broken')!
    expect(broken.status).not.toBe('ready')
    expect(clients.connection('broken')!.error).toMatch(/code 3.*told to exit at once/s)
    expect(clients.servers()).toContainEqual({ name: 'typo', status: 'failed', error: '/srv/app/mcp.json: command: required' })
    // The others are not harmed.
    await expect.poll(() => clients.servers().find((server) => server.name === 'everything')!.status, WAIT).toBe('ready')
    await expect(clients.callTool('broken', 'anything', {})).rejects.toThrow(/MCP server "broken" is (down|still starting)/)
  })

  it('a server that never answers initialize times out, is reported, and is tried again', async () => {
    const clients = await start([stdio('silent', faultServer('hang'))], [], { ...FAST, initializeTimeoutMs: 1_500 })
    await expect.poll(() => clients.connection('silent')!.error, WAIT).toMatch(/did not answer initialize within 1.5 s.*hanging/s)
    await expect.poll(() => clients.connection('silent')!.restarts, WAIT).toBeGreaterThanOrEqual(1)
  })

  it('restarts a server that dies, and leaves no process behind when it stops', async () => {
    const clients = await start([stdio('faulty', faultServer('serve'))])
    await expect.poll(() => clients.servers()[0]!.status, WAIT).toBe('ready')
    const first = clients.connection('faulty')!.pid!
    expect(isAlive(first)).toBe(true)
    await expect(clients.callTool('faulty', 'crash', {})).rejects.toThrow()
    await expect.poll(() => clients.connection('faulty')!.pid ?? 0, WAIT).not.toBe(0)
    const second = clients.connection('faulty')!.pid!
    expect(second).not.toBe(first)
    expect(isAlive(first)).toBe(false)
    expect(clients.connection('faulty')!.restarts).toBe(1)

    await close!()
    close = undefined
    await expect.poll(() => isAlive(second), WAIT).toBe(false)
  })

  it("connects a stdio server from VS Code's format, and lists a disabled one without starting it", async () => {
    const file = '/home/me/project/.vscode/mcp.json'
    const config = parseMcpServers({
      file,
      data: { servers: { local: { type: 'stdio', ...everythingServer() }, off: { type: 'stdio', ...faultServer('exit'), disabled: true } } },
    })
    expect(config.invalid).toEqual([])
    const clients = await start(config.servers, config.invalid, FAST, { path: file, disabled: config.disabled })
    expect(clients.servers()).toEqual([
      { name: 'local', status: 'starting' },
      { name: 'off', status: 'disabled' },
    ])
    await expect.poll(() => clients.servers()[0]!.status, WAIT).toBe('ready')
    expect((await clients.callTool('local', 'echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }])
    expect(clients.connection('off')).toBeUndefined()
    expect(clients.servers()[1]).toEqual({ name: 'off', status: 'disabled' })
    await expect(clients.callTool('off', 'anything', {})).rejects.toThrow(`The MCP server "off" is disabled in ${file}.`)
    await expect(clients.callTool('nobody', 'anything', {})).rejects.toThrow(`There is no MCP server named "nobody" in ${file}.`)
  })

  it('mcp.example.json, the file to copy to mcp.json, starts its local server as written and lists its remote one as disabled', async () => {
    const file = fileURLToPath(new URL('../../../mcp.example.json', import.meta.url))
    const config = readMcpServersConfig({ file })
    expect(config.invalid).toEqual([])
    // The remote entry is off only until its URL and token are filled in: as written, it is a valid entry.
    const enabled = parseMcpServers({ file, data: JSON.parse(readFileSync(file, 'utf8').replace('"disabled": true', '"disabled": false')) })
    expect(enabled.invalid).toEqual([])
    expect(enabled.servers.find((server) => server.name === 'remote')).toMatchObject({ transport: 'http', headers: { Authorization: expect.stringMatching(/^Bearer /) } })

    const clients = await start(config.servers, config.invalid, FAST, { path: file, disabled: config.disabled })
    expect(clients.servers()).toEqual([
      { name: 'everything', status: 'starting' },
      { name: 'remote', status: 'disabled' },
    ])
    await expect.poll(() => clients.servers()[0]!.status, WAIT).toBe('ready')
    expect((await clients.callTool('everything', 'echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }])
  })

  it("a slow server is starting, not failed, within its entry's initializeTimeoutMs, which wins over the app's", async () => {
    // The app allows 500 ms; this entry allows 20 s, and the server takes 1.5 s to answer.
    const clients = await start([{ ...stdio('slow', faultServer('slow', 1_500)), initializeTimeoutMs: 20_000 }], [], { ...FAST, initializeTimeoutMs: 500 })
    const seen = new Set<string>()
    await expect
      .poll(() => {
        const [info] = clients.servers()
        seen.add(JSON.stringify(info))
        return info!.status
      }, WAIT)
      .toBe('ready')
    expect([...seen]).toEqual([JSON.stringify({ name: 'slow', status: 'starting' }), JSON.stringify({ name: 'slow', status: 'ready' })])
    expect(clients.connection('slow')!.restarts).toBe(0)
  })

  it('whoever waits on the statuses they saw hears of the change when it happens, and at once when they are already old', async () => {
    const clients = await start([stdio('slow', faultServer('slow', 800))])
    const seen = serverStatusKey(clients.servers())
    expect(seen).toBe('slow:starting')
    await waitForStatusChange({ clients, after: seen, signal: new AbortController().signal })
    expect(clients.servers()).toEqual([{ name: 'slow', status: 'ready' }])
    // Already changed: no wait. Waiting on the current statuses ends with the signal.
    await waitForStatusChange({ clients, after: seen, signal: new AbortController().signal, maxWaitMs: 60_000 })
    const leave = new AbortController()
    const waiting = waitForStatusChange({ clients, after: serverStatusKey(clients.servers()), signal: leave.signal, maxWaitMs: 60_000 })
    leave.abort()
    await waiting
  })

  it("a server slower than its entry's initializeTimeoutMs is failed with that time, even when the app's is longer", async () => {
    const clients = await start([{ ...stdio('slow', faultServer('slow', 10_000)), initializeTimeoutMs: 700 }], [], FAST)
    await expect.poll(() => clients.connection('slow')!.error, WAIT).toMatch(/did not answer initialize within 0.7 s/)
  })
})
