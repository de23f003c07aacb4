import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError, type Environment } from './config-error'
import { readServerLimits, type ServerLimits } from './server-limits'

/** What the server needs from its environment, checked once at start. */
export interface ServerConfig {
  /** Where the embedded store and the generated secret live (absolute). */
  dataDir: string
  /** `redis://` or `rediss://`: sessions live in Redis, so that several instances share them. */
  redisUrl?: string
  /**
   * Where every store keeps its data, read here once: `redis` with `REDIS_URL`, else `memory` with
   * `SESSION_STORE=memory` (lost on restart: for benchmarks), else `embedded` under `dataDir`.
   */
  store: StoreChoice
  /** Signs the identity cookie (and later what else the server hands out). */
  sessionSecret: string
  /** How long a waiting session stays in memory after it was last touched (0: not at all). */
  hotMs: number
  /** How long a waiting session may go unanswered before it expires. */
  idleTimeoutMs: number
  /** Sessions, tool calls, model calls and request rates at most (`server-limits.ts`). */
  limits: ServerLimits
}

export { ConfigError, type Environment }

export type StoreChoice = 'redis' | 'memory' | 'embedded'

export const MIN_SECRET_LENGTH = 32
export const SESSION_SECRET_FILE = 'session-secret'
const DEFAULT_HOT_MS = 60_000
const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000
const MAKE_A_SECRET = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`

/**
 * Reads the server's configuration from `env`. Call it once when the server starts (never at
 * build time: it creates `DATA_DIR` and may write a secret there) and pass the result down.
 *
 * - `DATA_DIR` (default `.data`) resolves against `cwd`; it must be writable.
 * - `REDIS_URL` must be a `redis://` or `rediss://` URL, and needs `SESSION_SECRET`: every
 *   instance must sign identities with the same secret.
 * - `SESSION_SECRET` has at least 32 characters. Without it and without Redis, a secret is made
 *   once and kept in `<DATA_DIR>/session-secret`; processes starting at once agree on one.
 * - `SESSION_STORE=memory` (without Redis) keeps every store in memory; see `store`.
 * - `PLUGIN_SESSION_HOT_MS` (default 60000, may be 0) and `PLUGIN_SESSION_IDLE_TIMEOUT_MS`
 *   (default 1800000) are milliseconds.
 *
 * - The limits: see `readServerLimits`.
 *
 * An empty variable counts as unset. Anything else wrong is a `ConfigError`.
 */
export function readServerConfig(env: Environment = process.env, { cwd = process.cwd() }: { cwd?: string } = {}): ServerConfig {
  const redisUrl = readRedisUrl(given(env.REDIS_URL))
  const hotMs = readMs(env, 'PLUGIN_SESSION_HOT_MS', DEFAULT_HOT_MS, { allowZero: true })
  const idleTimeoutMs = readMs(env, 'PLUGIN_SESSION_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, { allowZero: false })
  const limits = readServerLimits(env)
  const secret = given(env.SESSION_SECRET)
  if (secret === undefined && redisUrl) {
    throw new ConfigError(
      'REDIS_URL is set but SESSION_SECRET is not: every instance must share SESSION_SECRET, so that each accepts ' +
        'the identity cookies the others issue. Set SESSION_SECRET to the same random string of at least ' +
        `${MIN_SECRET_LENGTH} characters on every instance (make one with: ${MAKE_A_SECRET}).`,
    )
  }
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `SESSION_SECRET has ${secret.length} characters; it needs at least ${MIN_SECRET_LENGTH}, random ` +
        `(make one with: ${MAKE_A_SECRET}).`,
    )
  }
  const dataDir = path.resolve(cwd, given(env.DATA_DIR) ?? '.data')
  ensureWritable(dataDir, given(env.DATA_DIR) === undefined)
  const store: StoreChoice = redisUrl ? 'redis' : given(env.SESSION_STORE) === 'memory' ? 'memory' : 'embedded'
  return { dataDir, redisUrl, store, sessionSecret: secret ?? keptSecret(dataDir), hotMs, idleTimeoutMs, limits }
}

function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

function readRedisUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    // Never echo the value: it may hold a password.
    const seen = url ? ` (it starts with "${url.protocol}//")` : ' (it is not a URL)'
    throw new ConfigError(
      `REDIS_URL must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379${seen}. ` +
        'Unset it to keep sessions in DATA_DIR instead.',
    )
  }
  return text
}

function readMs(env: Environment, name: string, fallback: number, { allowZero }: { allowZero: boolean }): number {
  const text = given(env[name])
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    const kind = allowZero ? 'a number of milliseconds, 0 or more' : 'a positive number of milliseconds'
    throw new ConfigError(`${name} must be ${kind} (default ${fallback}); got "${text}".`)
  }
  return value
}

function ensureWritable(dataDir: string, isDefault: boolean): void {
  const probe = path.join(dataDir, `.write-check-${process.pid}-${randomBytes(6).toString('hex')}`)
  try {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(probe, '', { flag: 'wx' })
    unlinkSync(probe)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new ConfigError(
      `DATA_DIR ${dataDir}${isDefault ? ' (the default, .data where the server was started)' : ''} cannot be created or ` +
        `written (${reason}). Set DATA_DIR to a directory this process can write, or give it write permission.`,
      { cause: error },
    )
  }
}

/**
 * The secret kept in `<dataDir>/session-secret`, made on first start. A new secret is written to
 * a private temporary file and linked into place, which fails if another process got there first:
 * then both read the one that won, and the file is never seen half-written.
 */
function keptSecret(dataDir: string): string {
  const file = path.join(dataDir, SESSION_SECRET_FILE)
  const existing = readSecretFile(file)
  if (existing !== undefined) return existing
  const secret = randomBytes(32).toString('base64url')
  const temporary = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`
  try {
    writeFileSync(temporary, `${secret}\n`, { flag: 'wx', mode: 0o600 })
    try {
      linkSync(temporary, file)
      return secret
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecretFile(file) ?? secret
      // A file system without hard links: create the file itself, exclusively.
      writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 })
      return secret
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const winner = readSecretFile(file)
      if (winner !== undefined) return winner
    }
    throw new ConfigError(`Could not keep a session secret in ${file} (${(error as NodeJS.ErrnoException).code ?? error}). Set SESSION_SECRET instead.`, {
      cause: error,
    })
  } finally {
    try {
      unlinkSync(temporary)
    } catch {
      // never written, or already gone
    }
  }
}

function readSecretFile(file: string): string | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new ConfigError(`Could not read the session secret in ${file} (${(error as NodeJS.ErrnoException).code ?? error}).`, { cause: error })
  }
  const secret = text.trim()
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `${file} holds a session secret of ${secret.length} characters; it needs at least ${MIN_SECRET_LENGTH}. ` +
        'Delete the file to have a new one made at start (every browser gets a new identity), or set SESSION_SECRET.',
    )
  }
  return secret
}
