import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './app-process'

/**
 * A real nginx (Debian's, `scripts/ensure-nginx.sh`) in front of app instances, configured with
 * the block that docs/deploying.md tells people to use ("What to put in front: nginx"), read from
 * the document itself so that the two cannot drift apart. Only what cannot hold on a test
 * machine is changed: it listens on a free port of 127.0.0.1 over plain HTTP (no certificate the
 * clients would trust), and its `upstream` lists the instances given, each with the parameters
 * the document's `server` lines carry.
 */

const DEPLOYING = fileURLToPath(new URL('../../docs/deploying.md', import.meta.url))
const HOST = '127.0.0.1'
/** Keep at most this much of nginx's own output (its error log) for failure messages. */
const MAX_OUTPUT = 64 * 1024
/** Debian's binary is in /usr/sbin, which is not on every user's PATH. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx'
const NOT_INSTALLED = 'nginx is not installed (run scripts/ensure-nginx.sh, or sudo apt-get install nginx).'

/** One request as nginx logged it: who served it is the last address nginx tried. */
export interface ProxiedRequest {
  method: string
  /** The path and query, as the client sent them. */
  uri: string
  status: number
  /** Every upstream nginx tried, in order (`127.0.0.1:3001`); the last one answered. */
  upstreams: string[]
  /** The upstream that answered, or undefined when none did (nginx answered 502 itself). */
  servedBy: string | undefined
}

export interface NginxProcess {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  /** The master process. */
  pid: number
  /** Where its configuration, pid file, logs and temporary files are. */
  dir: string
  /** Every request logged so far, in the order nginx finished them. */
  requests(): ProxiedRequest[]
  /**
   * Resolves with the requests logged so far once `done(requests)` holds (checked again on every
   * request nginx logs), or rejects after `timeoutMs` (default 10 s) naming what was logged.
   */
  waitForRequests(done: (requests: ProxiedRequest[]) => boolean, options?: { timeoutMs?: number }): Promise<ProxiedRequest[]>
  /** Its error log (stderr), for failure messages. */
  output(): string
  /** SIGTERM (nginx's fast shutdown: open streams are cut), then waits for the master to exit; removes its directory. */
  stop(): Promise<void>
}

/** The nginx block of docs/deploying.md, exactly as written there. */
export function documentedNginxBlock(): string {
  const text = readFileSync(DEPLOYING, 'utf8')
  const section = text.indexOf('## What to put in front: nginx')
  if (section < 0) throw new Error('docs/deploying.md has no "What to put in front: nginx" section')
  const block = /```nginx\n([\s\S]*?)```/.exec(text.slice(section))
  if (!block) throw new Error('docs/deploying.md: no ```nginx block under "What to put in front: nginx"')
  return block[1]!
}

/** nginx's version, e.g. `1.22.1`. */
export function nginxVersion(): string {
  const result = spawnSync(NGINX, ['-v'], { encoding: 'utf8' })
  if (result.error) throw (result.error as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(NOT_INSTALLED) : result.error
  const version = /nginx\/(\d+\.\d+\.\d+)/.exec(`${result.stderr}${result.stdout}`)
  if (!version) throw new Error(`Could not read nginx's version from: ${result.stderr}`)
  return version[1]!
}

const ACCESS_LOG = 'access.log'

/**
 * The whole configuration for a block of the `http` context (the document's): everything nginx
 * writes goes to `dir` (pid, temporary files, the access log, which says which instance answered
 * each request), it stays in the foreground (`daemon off`), and it has one worker, so that
 * round-robin alternates strictly across every request.
 */
export function wrapInHttpContext({ block, dir }: { block: string; dir: string }): string {
  const inDir = (name: string) => path.join(dir, name)
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${inDir('nginx.pid')};`,
    'error_log stderr notice;',
    'events { worker_connections 512; }',
    'http {',
    `  client_body_temp_path ${inDir('client_body')};`,
    `  proxy_temp_path ${inDir('proxy')};`,
    `  fastcgi_temp_path ${inDir('fastcgi')};`,
    `  uwsgi_temp_path ${inDir('uwsgi')};`,
    `  scgi_temp_path ${inDir('scgi')};`,
    `  log_format upstreams 'proxied $request_method $request_uri $status "$upstream_addr" "$upstream_status"';`,
    `  access_log ${inDir(ACCESS_LOG)} upstreams;`,
    ...block.split('\n').map((line) => (line ? `  ${line}` : line)),
    '}',
    '',
  ].join('\n')
}

/**
 * The document's block for a test: the upstream's `server` lines replaced by one per port (with
 * the parameters of the document's first `server` line), every `listen` by one plain-HTTP
 * listener on 127.0.0.1:`port`, and the TLS lines that then mean nothing left out.
 */
export function proxyBlock({ block, upstreamPorts, port }: { block: string; upstreamPorts: readonly number[]; port: number }): string {
  const upstream = /^(\s*)server\s+\S+?(\s[^;]*)?;\s*$/m
  const first = upstream.exec(block)
  if (!first) throw new Error(`The nginx block has no upstream "server" line:\n${block}`)
  const [, indent, parameters = ''] = first
  const servers = upstreamPorts.map((upstreamPort) => `${indent}server ${HOST}:${upstreamPort}${parameters};`).join('\n')
  let listened = false
  let listed = false
  return block
    .split('\n')
    .flatMap((line): string[] => {
      if (upstream.test(line)) {
        if (listed) return []
        listed = true
        return [servers]
      }
      if (/^\s*listen\s/.test(line)) {
        if (listened) return []
        listened = true
        return [line.replace(/listen\s[^;]*;/, `listen ${HOST}:${port};`)]
      }
      if (/^\s*(http2|ssl_[a-z_]+)\s/.test(line)) return []
      return [line]
    })
    .join('\n')
}

/** `nginx -t` on `config` (a whole configuration) in `dir`: whether it loads, and what nginx said. */
export function testNginxConfig({ config, dir }: { config: string; dir: string }): { ok: boolean; output: string } {
  const file = path.join(dir, 'nginx.conf')
  writeFileSync(file, config)
  const result = spawnSync(NGINX, ['-t', '-p', dir, '-c', file], { encoding: 'utf8' })
  if (result.error) throw (result.error as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(NOT_INSTALLED) : result.error
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` }
}

/** A temporary directory nginx's workers can enter too (they run as `nobody` when the master is root). */
export function nginxDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nginx-'))
  chmodSync(dir, 0o755)
  return dir
}

const running = new Set<ChildProcess>()
let cleanupInstalled = false

/**
 * Starts nginx, from the document's block, in front of the app instances on `upstreamPorts`
 * (127.0.0.1), and resolves once its worker has started (its listening socket is open before
 * that, in the master). Rejects with nginx's output if it exits first or takes over 10 s.
 *
 * @example
 * const nginx = await startNginx({ upstreamPorts: [a.port, b.port] })
 * await fetch(`${nginx.url}/api/health`)
 * await nginx.stop()
 */
export async function startNginx({ upstreamPorts }: { upstreamPorts: readonly number[] }): Promise<NginxProcess> {
  if (!cleanupInstalled) {
    cleanupInstalled = true
    // SIGTERM, not SIGKILL: a master killed outright would leave its worker listening.
    process.on('exit', () => {
      for (const child of running) child.kill('SIGTERM')
    })
  }
  const port = await freePort()
  const dir = nginxDir()
  const config = wrapInHttpContext({ block: proxyBlock({ block: documentedNginxBlock(), upstreamPorts, port }), dir })
  const file = path.join(dir, 'nginx.conf')
  writeFileSync(file, config)

  // nginx appends one line per request as it ends it (no `buffer=`): each change is read as it happens.
  const accessLog = path.join(dir, ACCESS_LOG)
  writeFileSync(accessLog, '')
  chmodSync(accessLog, 0o644)
  const logged: ProxiedRequest[] = []
  const waiters = new Set<() => void>()
  const log = openSync(accessLog, 'r')
  let offset = 0
  let pending = ''
  let closed = false
  const readLog = () => {
    if (closed) return
    const buffer = Buffer.alloc(64 * 1024)
    for (let read; (read = readSync(log, buffer, 0, buffer.length, offset)) > 0; offset += read) pending += buffer.toString('utf8', 0, read)
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) {
      const request = parseLogLine(line)
      if (request) logged.push(request)
    }
    for (const wake of waiters) wake()
  }
  const watcher = watch(accessLog, readLog)

  const child = spawn(NGINX, ['-p', dir, '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  running.add(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  void exited.then(() => {
    running.delete(child)
    readLog()
    closed = true
    watcher.close()
    closeSync(log)
  })

  let output = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
  })

  await new Promise<void>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(deadline)
      child.kill('SIGTERM')
      void exited.then(() => reject(new Error(`${reason}\n--- nginx -p ${dir} ---\n${output}\n--- ${file} ---\n${config}`)))
    }
    const deadline = setTimeout(() => fail('nginx did not start its worker within 10 s.'), 10_000)
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline)
      reject(error.code === 'ENOENT' ? new Error(NOT_INSTALLED) : error)
    })
    const early = (code: number | null, signal: NodeJS.Signals | null) => fail(`nginx exited (${signal ?? `exit code ${code}`}) before it was ready.`)
    child.once('exit', early)
    const ready = () => {
      if (!/start worker process/.test(output)) return
      clearTimeout(deadline)
      child.off('exit', early)
      child.stderr!.off('data', ready)
      resolve()
    }
    child.stderr!.on('data', ready)
  })

  return {
    url: `http://${HOST}:${port}`,
    port,
    pid: child.pid!,
    dir,
    requests() {
      readLog()
      return [...logged]
    },
    waitForRequests(done, { timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(logged)) return
          finish()
          resolve([...logged])
        }
        const finish = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        const timer = setTimeout(() => {
          finish()
          reject(new Error(`nginx did not log the requests waited for within ${timeoutMs} ms; it logged:\n${logged.map(describeRequest).join('\n')}`))
        }, timeoutMs)
        waiters.add(check)
        readLog()
        check()
      })
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** `proxied POST /api/mcp 200 "127.0.0.1:3001, 127.0.0.1:3002" "502, 200"` (the log_format above). */
function parseLogLine(line: string): ProxiedRequest | undefined {
  const match = /^proxied (\S+) (\S+) (\d+) "([^"]*)" "([^"]*)"$/.exec(line.trim())
  if (!match) return undefined
  const [, method, uri, status, addresses, statuses] = match
  // "-" when no upstream was tried; "a, b" when one was tried after another.
  const list = (value: string) => (value === '-' ? [] : value.split(/\s*,\s*/).filter(Boolean))
  const upstreams = list(addresses!)
  // A refused or cut connection is logged as that attempt's 502: nginx, not the app, said it.
  const answered = list(statuses!).at(-1) !== '502'
  return { method: method!, uri: uri!, status: Number(status), upstreams, servedBy: answered ? upstreams.at(-1) : undefined }
}

export function describeRequest(request: ProxiedRequest): string {
  return `${request.method} ${request.uri} ${request.status} via ${request.upstreams.join(', ') || '(none)'}`
}
