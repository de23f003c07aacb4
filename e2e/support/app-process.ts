import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository: where `node scripts/start.mjs` runs and `.next/standalone` was built. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const HOST = '127.0.0.1'
const READY = /\bReady in\b/
/** Keep at most this much output per process for failure messages. */
const MAX_OUTPUT = 256 * 1024

/** Variables of the app's own that the test decides, never inherited from the shell that ran Playwright. */
const APP_VARIABLES = [
  'DATA_DIR',
  'REDIS_URL',
  'SESSION_SECRET',
  'PLUGIN_SESSION_HOT_MS',
  'PLUGIN_SESSION_IDLE_TIMEOUT_MS',
  'MCP_CONFIG',
  'MCP_STATE_SECRET',
  'MCP_AUTH_TOKEN',
  'MCP_AUTH_ISSUER',
  'MCP_AUTH_SCOPES',
  'MCP_AUTH_INTROSPECTION',
  'MCP_AUTH_INTROSPECTION_CLIENT_ID',
  'MCP_AUTH_INTROSPECTION_CLIENT_SECRET',
  'MCP_ALLOWED_HOSTS',
  'MCP_MAX_SESSIONS_PER_CLIENT',
  'MCP_CONFORMANCE',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'NODE_OPTIONS',
  'TRUST_PROXY',
  'HEADERS_TIMEOUT_MS',
  'REQUEST_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT',
  'SHUTDOWN_DELAY_MS',
  'APP_URL',
  'AUTH_OIDC_ISSUER',
  'AUTH_OIDC_CLIENT_ID',
  'AUTH_OIDC_CLIENT_SECRET',
  'AUTH_ALLOWED_EMAILS',
  'AUTH_ALLOWED_GROUPS',
  'AUTH_GROUPS_CLAIM',
  'AUTH_ADMIN_EMAILS',
  'AUTH_ADMIN_GROUPS',
  'AUTH_GUESTS',
  'MODEL_BUDGET_TOKENS_PER_DAY',
  'GUEST_MODEL_BUDGET_TOKENS_PER_DAY',
  'ADMIN_TOKEN',
  'INSTANCE_NAME',
]

export interface StartAppOptions {
  /** Added last: overrides the defaults below (set `OFFLINE_MODEL_DELAY_MS`, `REDIS_URL`, `SESSION_SECRET`, ...). */
  env?: Record<string, string>
  /** Default: a free port on 127.0.0.1. */
  port?: number
  /** Default: `env.DATA_DIR`, else a fresh temporary directory (removed when the test worker exits). Pass another app's to restart "the same" server. */
  dataDir?: string
  /** How long the server may take to answer `/api/health`. Default 30 s. */
  readyTimeoutMs?: number
  /** A deployed copy of `.next/standalone`: started there as the deploy docs say (`node start.mjs`), not from the project. */
  deployedAt?: string
}

export interface AppProcess {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  /** The absolute DATA_DIR the server was given. */
  dataDir: string
  pid: number
  /** Send `signal` (default SIGKILL, like `kill -9`); resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** SIGTERM, then wait for the exit (SIGKILL and an error if it takes more than `timeoutMs`, default 10 s). */
  stop(options?: { timeoutMs?: number }): Promise<void>
  /** Everything the process printed so far, stdout and stderr interleaved, for failure messages. */
  output(): string
  /** Resolves once what the process printed matches `pattern`; rejects if it exits first. */
  printed(pattern: RegExp): Promise<void>
  /** Resolves with the exit code (or the signal) once the process has exited. */
  exited: Promise<number | NodeJS.Signals | null>
}

const running = new Set<ChildProcess>()
const temporaryDirs = new Set<string>()
let cleanupInstalled = false

function installCleanup(): void {
  if (cleanupInstalled) return
  cleanupInstalled = true
  // A test that failed before its own cleanup must not leave a server behind.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL')
    for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true })
  })
}

/** A port nobody listens on right now: the kernel picks one for a listener that is closed at once. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, HOST, resolve)
  })
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('Could not find a free port')
  return address.port
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` right now. */
export function portState(port: number): Promise<'open' | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: HOST, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve('open')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy()
      if (error.code === 'ECONNREFUSED') resolve('refused')
      else reject(error)
    })
  })
}

/**
 * Start the production server (`node scripts/start.mjs`; `npm run build` must have run) as a
 * real process on 127.0.0.1 with the offline model, and resolve once `GET /api/health` is 200.
 * Readiness is event-driven: the server's "Ready in" line, then one health request. If the
 * process exits first, or is not ready by the deadline, this rejects with its output.
 */
export async function startApp({ env = {}, port, dataDir, readyTimeoutMs = 30_000, deployedAt }: StartAppOptions = {}): Promise<AppProcess> {
  installCleanup()
  const chosenPort = port ?? (await freePort())
  const dir = dataDir ?? env.DATA_DIR ?? madeDataDir()
  const inherited = { ...process.env }
  for (const name of APP_VARIABLES) delete inherited[name]
  const child = spawn(process.execPath, [deployedAt ? 'start.mjs' : 'scripts/start.mjs'], {
    cwd: deployedAt ?? ROOT,
    env: {
      ...inherited,
      PORT: String(chosenPort),
      HOSTNAME: HOST,
      OPENAI_API_KEY: '',
      OFFLINE_MODEL_DELAY_MS: '0',
      EXPOSE_SESSIONS: '1',
      ...env,
      DATA_DIR: dir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)

  let output = ''
  const watchers = new Set<() => void>()
  const record = (chunk: Buffer) => {
    output += chunk.toString('utf8')
    if (output.length > MAX_OUTPUT) output = output.slice(-MAX_OUTPUT)
    for (const watcher of watchers) watcher()
  }
  const exitedWith = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve(signal ?? code)
      for (const watcher of watchers) watcher()
    })
  })
  const exited = exitedWith.then(() => undefined)
  const hasExited = () => child.exitCode !== null || child.signalCode !== null

  async function kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!hasExited()) child.kill(signal)
    await exited
  }

  const url = `http://${HOST}:${chosenPort}`
  const app: AppProcess = {
    url,
    port: chosenPort,
    dataDir: dir,
    pid: child.pid ?? -1,
    kill,
    async stop({ timeoutMs = 10_000 } = {}) {
      if (hasExited()) return
      child.kill('SIGTERM')
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)))
      const outcome = await Promise.race([exited.then(() => 'exited' as const), late])
      clearTimeout(timer)
      if (outcome === 'late') {
        await kill('SIGKILL')
        throw new Error(`The server (pid ${child.pid}) did not exit within ${timeoutMs} ms of SIGTERM; it was killed.\n${output}`)
      }
    },
    output: () => output,
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) resolve()
          else if (hasExited()) reject(new Error(`The server exited before printing ${pattern}:\n${output}`))
          else return
          watchers.delete(check)
        }
        watchers.add(check)
        check()
      }),
    exited: exitedWith,
  }

  await new Promise<void>((resolve, reject) => {
    let settled = false
    let checking = false
    const fail = (reason: string) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      void kill('SIGKILL').then(() =>
        reject(new Error(`${reason}\n--- output of node scripts/start.mjs (PORT=${chosenPort}, DATA_DIR=${dir}) ---\n${output}`)),
      )
    }
    const succeed = () => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resolve()
    }
    const deadline = setTimeout(() => fail(`The server was not ready within ${readyTimeoutMs} ms.`), readyTimeoutMs)
    child.once('error', (error) => fail(`Could not start the server: ${error.message}`))
    child.once('exit', (code, signal) => fail(`The server exited before it was ready (${signal ?? `exit code ${code}`}).`))
    child.stderr!.on('data', record)
    child.stdout!.on('data', (chunk: Buffer) => {
      record(chunk)
      if (checking || settled || !READY.test(output)) return
      checking = true
      fetch(`${url}/api/health`)
        .then(async (response) => {
          if (response.status === 200) succeed()
          else fail(`GET /api/health answered ${response.status}: ${await response.text()}`)
        })
        .catch((error: Error) => fail(`GET /api/health failed after "Ready": ${error.message}`))
    })
  })
  return app
}

function madeDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'chat-app-data-'))
  temporaryDirs.add(dir)
  return dir
}
