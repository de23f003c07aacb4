import { afterEach, describe, expect, it } from 'vitest'
import { backoffDelay, DEFAULT_MCP_SERVER_TIMING } from './run-mcp-server'
import { startMcpClients } from './start-mcp-clients'
import type { McpServerConfig } from './mcp-servers-config'
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

async function start(servers: McpServerConfig[], invalid: Array<{ name: string; error: string }> = [], timing = FAST) {
  const started = await startMcpClients({ config: { servers, invalid }, timing })
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
    const clients = await start([stdio('broken', faultServer('exit')), stdio('everything', everythingServer())], [{ name: 'typo', error: 'command: required' }])
    await expect.poll(() => clients.connection('broken')!.restarts, WAIT).toBeGreaterThanOrEqual(3)
    const broken = clients.servers().find((server) => server.name === 'broken')!
    expect(broken.status).not.toBe('ready')
    expect(clients.connection('broken')!.error).toMatch(/code 3.*told to exit at once/s)
    expect(clients.servers()).toContainEqual({ name: 'typo', status: 'failed', error: 'mcp.json: command: required' })
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
})
