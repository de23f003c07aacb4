import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './app-process'

/** The MCP Inspector these tests run: the first release that renders app-rendered elicitations (SEP-3118). */
export const INSPECTOR_VERSION = '2.12.0'

/** One entry of Inspector's `--config` file (its `mcpServers` format, with its own per-server fields). */
export interface InspectorServer {
  url: string
  /** `legacy` (2025-11-25, Inspector's default) or `modern` (2026-07-28). */
  protocolEra?: 'legacy' | 'modern'
  /** Per-extension overrides of what Inspector declares, e.g. `{ 'io.modelcontextprotocol/ui': false }`. */
  advertisedExtensions?: Record<string, boolean>
}

export interface InspectorProcess {
  /** The web client's address, its token in the query as Inspector prints it. */
  url: string
  output(): string
  /** SIGTERM to its process group, then wait for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()
let cleanupInstalled = false

/**
 * MCP Inspector's web client, from the npm registry as a person runs it (`npx`), on Node 22
 * (Inspector needs ≥ 22.19; the app stays on Node 20): `--config` names the servers, token
 * auth, fixed free ports for its UI, its MCP Apps sandbox and its app origin, secrets in memory
 * and its storage in a temporary folder. Resolves once it says it is up and its page answers;
 * the first run downloads it, so the deadline is long.
 */
export async function startInspector({ servers, readyTimeoutMs = 240_000 }: { servers: Record<string, InspectorServer>; readyTimeoutMs?: number }): Promise<InspectorProcess> {
  if (!cleanupInstalled) {
    cleanupInstalled = true
    process.on('exit', () => {
      for (const child of running) if (child.pid) process.kill(-child.pid, 'SIGKILL')
    })
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-inspector-'))
  const config = path.join(dir, 'config.json')
  writeFileSync(config, JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, { type: 'http', ...server }])) }))
  const token = randomBytes(16).toString('hex')
  const [clientPort, sandboxPort, appOriginPort] = [await freePort(), await freePort(), await freePort()]
  const child = spawn('npx', ['-y', '-p', 'node@22', '-p', `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`, '--', 'mcp-inspector', '--web', '--config', config], {
    cwd: dir,
    // Its own process group: npx, the shell it starts and Inspector's node end together.
    detached: true,
    env: {
      ...process.env,
      MCP_INSPECTOR_API_TOKEN: token,
      CLIENT_PORT: String(clientPort),
      MCP_SANDBOX_PORT: String(sandboxPort),
      MCP_APP_ORIGIN_PORT: String(appOriginPort),
      MCP_AUTO_OPEN_ENABLED: 'false',
      MCP_INSPECTOR_SECRET_STORE: 'memory',
      MCP_STORAGE_DIR: path.join(dir, 'storage'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const hasExited = () => child.exitCode !== null || child.signalCode !== null
  const signalGroup = (signal: NodeJS.Signals) => {
    if (!hasExited() && child.pid) process.kill(-child.pid, signal)
  }
  const url = `http://127.0.0.1:${clientPort}/?MCP_INSPECTOR_API_TOKEN=${token}`

  async function stop(): Promise<void> {
    signalGroup('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)))
    if ((await Promise.race([exited.then(() => 'exited' as const), late])) === 'late') {
      signalGroup('SIGKILL')
      await exited
    }
    clearTimeout(timer)
    running.delete(child)
    rmSync(dir, { recursive: true, force: true })
  }

  await new Promise<void>((resolve, reject) => {
    let settled = false
    let checking = false
    const settle = (error?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      if (!error) return resolve()
      void stop().then(() => reject(new Error(`${error.message}\n--- output of mcp-inspector ${INSPECTOR_VERSION} ---\n${output}`)))
    }
    const deadline = setTimeout(() => settle(new Error(`MCP Inspector was not up within ${readyTimeoutMs} ms.`)), readyTimeoutMs)
    child.once('error', (error) => settle(new Error(`Could not start npx: ${error.message}`)))
    child.once('exit', (code, signal) => settle(new Error(`MCP Inspector exited before it was up (${signal ?? `exit code ${code}`}).`)))
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')))
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (checking || !/is up and running/.test(output)) return
      checking = true
      fetch(url)
        .then((response) => settle(response.ok ? undefined : new Error(`Inspector's page answered ${response.status}`)))
        .catch((error: Error) => settle(new Error(`Inspector's page did not answer: ${error.message}`)))
    })
  })
  return { url, output: () => output, stop }
}
