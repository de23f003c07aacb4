// Serve the production build on PORT (default 3000): `npm start` in the project, or
// `node start.mjs` in a deployed copy of .next/standalone (scripts/prepare-standalone.mjs puts
// this file there), so that a deployed server gets the same checks and timeouts.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const besideThis = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js')
const server = existsSync(besideThis) ? besideThis : path.resolve('.next/standalone/server.js')
if (!existsSync(server)) {
  console.error('There is no production build yet: run `npm run build` first.')
  process.exit(1)
}

// The standalone server changes directory into .next/standalone, which the next build wipes:
// a relative DATA_DIR means the directory this was started from, so pass it on absolute.
const dataDir = path.resolve(process.cwd(), process.env.DATA_DIR?.trim() || '.data')
const probe = path.join(dataDir, `.write-check-${process.pid}-${randomBytes(6).toString('hex')}`)
try {
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(probe, '', { flag: 'wx' })
  unlinkSync(probe)
} catch (error) {
  console.error(
    `Cannot start: DATA_DIR ${dataDir} cannot be created or written (${error?.code ?? error?.message ?? error}).\n` +
      'Set DATA_DIR to a directory this process can write, or give it write permission.',
  )
  process.exit(1)
}
process.env.DATA_DIR = dataDir

// The same for the external MCP servers: MCP_CONFIG, else mcp.json here if there is one.
const mcpConfig = process.env.MCP_CONFIG?.trim()
if (mcpConfig) process.env.MCP_CONFIG = path.resolve(process.cwd(), mcpConfig)
else if (existsSync('mcp.json')) process.env.MCP_CONFIG = path.resolve('mcp.json')

// How long a client may take to send its headers, and its whole request (the body included;
// the streamed answer is not limited by either). Next's standalone server makes a plain
// http.createServer with Node's defaults (60 s and 300 s, checked every 30 s), so a slow client
// could hold a connection for five minutes; it takes no option for them. This is not a custom
// server: the one server Next makes is given these options when it is created.
function readTimeout(name, fallback, { zero = false } = {}) {
  const text = process.env[name]?.trim()
  if (!text) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) {
    console.error(`Cannot start: ${name} must be a ${zero ? '' : 'positive '}whole number of milliseconds${zero ? ', 0 or more' : ''} (default ${fallback}); got "${text}".`)
    process.exit(1)
  }
  return value
}
const headersTimeout = readTimeout('HEADERS_TIMEOUT_MS', 15_000)
const requestTimeout = readTimeout('REQUEST_TIMEOUT_MS', 30_000)
if (headersTimeout > requestTimeout) {
  console.error(`Cannot start: HEADERS_TIMEOUT_MS (${headersTimeout}) must not be more than REQUEST_TIMEOUT_MS (${requestTimeout}).`)
  process.exit(1)
}
// How long a graceful stop keeps accepting connections after /api/ready turns 503 (see below).
const shutdownDelay = readTimeout('SHUTDOWN_DELAY_MS', 0, { zero: true })
const createServer = http.createServer
http.createServer = (...args) => {
  const [options, listener] = typeof args[0] === 'function' ? [{}, args[0]] : args
  // Checked once a second (Node's default: every 30 s), so a timeout ends close to its time.
  const server = createServer({ connectionsCheckingInterval: Math.min(1_000, headersTimeout), ...options, headersTimeout, requestTimeout }, listener)
  deferClose(server)
  return server
}

// A graceful stop (SIGTERM, or Ctrl-C) begins with the readiness route (/api/ready) answering 503
// at once, so that a load balancer sends new work elsewhere. For SHUTDOWN_DELAY_MS more (default
// 0) everything is served as before, new connections too: the time a load balancer takes to see
// the 503 (Kubernetes: the probe's period times its failure threshold). Then Next's own handler
// closes the listener, waits for the last open response (a turn still streaming) and exits.
// From then on a connection closes as soon as its response is done: Next closes only the
// connections idle at that moment, and one that finishes a response later (an MCP stream the app
// ends for the stop) would be kept open for KEEP_ALIVE_TIMEOUT more, a minute behind a proxy.
let stopAt
const beginStop = () => {
  if (stopAt !== undefined) return
  stopAt = Date.now() + shutdownDelay
  console.log(
    shutdownDelay > 0
      ? `Stopping: /api/ready answers 503; connections are accepted for ${shutdownDelay} ms more, then the open requests finish.`
      : 'Stopping: /api/ready answers 503; the open requests finish.',
  )
}
process.once('SIGTERM', beginStop)
process.once('SIGINT', beginStop)
/** Next's `server.close()` (from its SIGTERM handler) takes effect once the delay is over. */
function deferClose(server) {
  const close = server.close.bind(server)
  server.close = (callback) => {
    setTimeout(
      () => {
        close(callback)
        server.keepAliveTimeout = 1
        server.closeIdleConnections()
        if (shutdownDelay > 0) console.log('Stopping: no longer accepting connections.')
      },
      Math.max(0, (stopAt ?? 0) - Date.now()),
    )
    return server
  }
}

process.env.PORT ??= '3000'
// The address people open: the one the server listens on, unless that is every interface.
const listening = process.env.HOSTNAME?.trim()
const host = !listening || listening === '0.0.0.0' || listening === '::' ? 'localhost' : listening.includes(':') ? `[${listening}]` : listening
console.log(`Chat on http://${host}:${process.env.PORT} (model: ${process.env.OPENAI_API_KEY ? 'OpenAI-compatible' : 'offline'}; data: ${dataDir})`)
await import(pathToFileURL(server).href)
