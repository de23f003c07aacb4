import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, readServerConfig, SESSION_SECRET_FILE } from './config'
import { DEFAULT_LIMITS } from './server-limits'

const SECRET = 'x'.repeat(32)
let root: string

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'server-config-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function refusal(run: () => unknown): ConfigError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('readServerConfig', () => {
  it('defaults: .data in the directory the server was started from, the embedded store, a kept secret, one minute hot, 30 minutes idle', () => {
    const config = readServerConfig({}, { cwd: root })
    expect(config).toEqual({
      dataDir: path.join(root, '.data'),
      redisUrl: undefined,
      store: 'embedded',
      sessionSecret: expect.any(String),
      hotMs: 60_000,
      idleTimeoutMs: 1_800_000,
      limits: DEFAULT_LIMITS,
    })
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32)
    expect(readFileSync(path.join(root, '.data', SESSION_SECRET_FILE), 'utf8').trim()).toBe(config.sessionSecret)
  })

  it('reads the store choice once: Redis with REDIS_URL (SESSION_STORE=memory or not), memory with SESSION_STORE=memory, else embedded', () => {
    const secret = 's'.repeat(40)
    expect(readServerConfig({ REDIS_URL: 'redis://cache:6379', SESSION_SECRET: secret, SESSION_STORE: 'memory' }, { cwd: root }).store).toBe('redis')
    expect(readServerConfig({ SESSION_STORE: 'memory', SESSION_SECRET: secret }, { cwd: root }).store).toBe('memory')
    expect(readServerConfig({ SESSION_STORE: '', SESSION_SECRET: secret }, { cwd: root }).store).toBe('embedded')
  })

  it('reads every limit from its variable, and refuses values that are not positive numbers, naming the variable', () => {
    const env = { DATA_DIR: root, SESSION_SECRET: SECRET }
    expect(
      readServerConfig({
        ...env,
        MAX_WAITING_SESSIONS_PER_CLIENT: '3',
        MAX_WAITING_SESSIONS: '100',
        MAX_TOOL_CALLS_PER_STEP: '2',
        MAX_MODEL_STEPS_PER_TURN: '4',
        MAX_OUTPUT_TOKENS: '512',
        MODEL_TIMEOUT_MS: '5000',
        RATE_LIMIT_BURST: '10',
        RATE_LIMIT_PER_SECOND: '0.5',
        RATE_LIMIT_GLOBAL_BURST: '50',
        RATE_LIMIT_GLOBAL_PER_SECOND: '25',
        RATE_LIMIT_FAIR_SHARE: '2',
        RATE_LIMIT_FAIR_SHARE_GROUP: '6',
        MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '3',
        TOOL_STARTS_BURST: '5',
        TOOL_STARTS_PER_MINUTE: '2.5',
        TOOL_CONTEXT_MAX_BYTES: '4096',
        TRUST_PROXY: '1',
      }).limits,
    ).toEqual({
      maxWaitingSessionsPerClient: 3,
      maxWaitingSessions: 100,
      maxToolCallsPerStep: 2,
      maxModelStepsPerTurn: 4,
      maxOutputTokens: 512,
      modelTimeoutMs: 5000,
      rateBurst: 10,
      ratePerSecond: 0.5,
      globalRateBurst: 50,
      globalRatePerSecond: 25,
      fairShareRequests: 2,
      fairShareGroupRequests: 6,
      maxRequestsInFlightPerAddress: 3,
      toolStartsBurst: 5,
      toolStartsPerMinute: 2.5,
      toolContextMaxBytes: 4096,
      trustProxy: true,
    })
    expect(readServerConfig({ ...env, MAX_TOOL_CALLS_PER_STEP: '', TRUST_PROXY: '0' }).limits).toEqual(DEFAULT_LIMITS)
    expect(refusal(() => readServerConfig({ ...env, MAX_TOOL_CALLS_PER_STEP: '0' })).message).toMatch(/MAX_TOOL_CALLS_PER_STEP must be a positive whole number \(default 8\); got "0"/)
    expect(refusal(() => readServerConfig({ ...env, MODEL_TIMEOUT_MS: 'soon' })).message).toMatch(/MODEL_TIMEOUT_MS/)
    expect(refusal(() => readServerConfig({ ...env, RATE_LIMIT_BURST: '2.5' })).message).toMatch(/RATE_LIMIT_BURST/)
    expect(refusal(() => readServerConfig({ ...env, TRUST_PROXY: 'yes' })).message).toMatch(/TRUST_PROXY must be 1/)
  })

  it('resolves a relative DATA_DIR against the start directory and keeps an absolute one', () => {
    expect(readServerConfig({ DATA_DIR: 'state/sessions', SESSION_SECRET: SECRET }, { cwd: root }).dataDir).toBe(path.join(root, 'state', 'sessions'))
    const absolute = path.join(root, 'elsewhere')
    expect(readServerConfig({ DATA_DIR: absolute, SESSION_SECRET: SECRET }, { cwd: '/' }).dataDir).toBe(absolute)
  })

  it('resolves against process.cwd() when no cwd is given', () => {
    const dataDir = path.join(root, 'data')
    expect(readServerConfig({ DATA_DIR: path.relative(process.cwd(), dataDir), SESSION_SECRET: SECRET }).dataDir).toBe(dataDir)
  })

  it('reads the hot and idle times, and refuses values that are not milliseconds', () => {
    const env = { DATA_DIR: root, SESSION_SECRET: SECRET }
    expect(readServerConfig({ ...env, PLUGIN_SESSION_HOT_MS: '0', PLUGIN_SESSION_IDLE_TIMEOUT_MS: '5000' })).toMatchObject({ hotMs: 0, idleTimeoutMs: 5000 })
    expect(readServerConfig({ ...env, PLUGIN_SESSION_HOT_MS: '', PLUGIN_SESSION_IDLE_TIMEOUT_MS: '' })).toMatchObject({ hotMs: 60_000, idleTimeoutMs: 1_800_000 })
    expect(refusal(() => readServerConfig({ ...env, PLUGIN_SESSION_HOT_MS: 'a minute' })).message).toMatch(/PLUGIN_SESSION_HOT_MS .*milliseconds.*"a minute"/)
    expect(refusal(() => readServerConfig({ ...env, PLUGIN_SESSION_HOT_MS: '-1' })).message).toMatch(/PLUGIN_SESSION_HOT_MS/)
    expect(refusal(() => readServerConfig({ ...env, PLUGIN_SESSION_IDLE_TIMEOUT_MS: '0' })).message).toMatch(/PLUGIN_SESSION_IDLE_TIMEOUT_MS must be a positive number/)
  })

  describe('REDIS_URL', () => {
    it('accepts redis:// and rediss:// with SESSION_SECRET', () => {
      for (const redisUrl of ['redis://127.0.0.1:6379', 'rediss://user:pw@redis.internal:6380/2']) {
        expect(readServerConfig({ DATA_DIR: root, REDIS_URL: redisUrl, SESSION_SECRET: SECRET })).toMatchObject({ redisUrl, sessionSecret: SECRET })
      }
    })

    it.each([
      ['another scheme', 'http://127.0.0.1:6379', /redis:\/\/ or rediss:\/\/.*"http:\/\/"/],
      ['not a URL', '127.0.0.1:6379', /redis:\/\/ or rediss:\/\//],
      ['no host', 'redis://', /with a host/],
    ])('refuses %s', (_name, redisUrl, message) => {
      expect(refusal(() => readServerConfig({ DATA_DIR: root, REDIS_URL: redisUrl, SESSION_SECRET: SECRET })).message).toMatch(message)
    })

    it('never repeats a password it was given in its message', () => {
      const error = refusal(() => readServerConfig({ DATA_DIR: root, REDIS_URL: 'https://user:hunter2-password@host', SESSION_SECRET: SECRET }))
      expect(error.message).not.toContain('hunter2')
    })

    it('refuses to start without SESSION_SECRET, and writes no secret of its own', () => {
      const error = refusal(() => readServerConfig({ DATA_DIR: root, REDIS_URL: 'redis://127.0.0.1:6379' }))
      expect(error.message).toMatch(/REDIS_URL is set but SESSION_SECRET is not: every instance must share SESSION_SECRET/)
      expect(readdirSync(root)).toEqual([])
    })
  })

  describe('SESSION_SECRET', () => {
    it('is used as given, and no secret file is written', () => {
      const secret = 'a-random-secret-that-is-long-enough-0123'
      expect(readServerConfig({ DATA_DIR: root, SESSION_SECRET: secret }).sessionSecret).toBe(secret)
      expect(readdirSync(root)).toEqual([])
    })

    it('refuses one shorter than 32 characters', () => {
      const error = refusal(() => readServerConfig({ DATA_DIR: root, SESSION_SECRET: 'x'.repeat(31) }))
      expect(error.message).toMatch(/SESSION_SECRET has 31 characters; it needs at least 32/)
    })
  })

  describe('without REDIS_URL and SESSION_SECRET: a secret made once and kept in DATA_DIR', () => {
    it('creates the directory and a private secret file, and reads the same secret on the next start', () => {
      const dataDir = path.join(root, 'nested', 'data')
      const first = readServerConfig({ DATA_DIR: dataDir })
      const file = path.join(dataDir, SESSION_SECRET_FILE)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(readServerConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first.sessionSecret)
      expect(readdirSync(dataDir)).toEqual([SESSION_SECRET_FILE])
    })

    it('reads a secret file that is already there', () => {
      const kept = 'k'.repeat(40)
      writeFileSync(path.join(root, SESSION_SECRET_FILE), `${kept}\n`)
      expect(readServerConfig({ DATA_DIR: root }).sessionSecret).toBe(kept)
    })

    it('refuses a kept secret that is too short, naming the file', () => {
      writeFileSync(path.join(root, SESSION_SECRET_FILE), 'short\n')
      const error = refusal(() => readServerConfig({ DATA_DIR: root }))
      expect(error.message).toContain(path.join(root, SESSION_SECRET_FILE))
      expect(error.message).toMatch(/Delete the file/)
    })

    it('agrees on one secret when several processes start at once', async () => {
      const module = fileURLToPath(new URL('./config.ts', import.meta.url))
      const script = `import { readServerConfig } from ${JSON.stringify(module)}; process.stdout.write(readServerConfig().sessionSecret)`
      const secrets = await Promise.all(
        Array.from({ length: 6 }, () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
              env: { ...process.env, DATA_DIR: root, SESSION_SECRET: '', REDIS_URL: '' },
              stdio: ['ignore', 'pipe', 'pipe'],
            })
            let out = ''
            let err = ''
            child.stdout.on('data', (chunk) => (out += chunk))
            child.stderr.on('data', (chunk) => (err += chunk))
            child.on('error', reject)
            child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))))
          }),
        ),
      )
      expect(new Set(secrets).size).toBe(1)
      expect(secrets[0]!.length).toBeGreaterThanOrEqual(32)
      expect(readFileSync(path.join(root, SESSION_SECRET_FILE), 'utf8').trim()).toBe(secrets[0])
      expect(readdirSync(root)).toEqual([SESSION_SECRET_FILE])
    })
  })

  describe('DATA_DIR that cannot be written', () => {
    it('is refused with a message naming the directory', () => {
      const file = path.join(root, 'a-file')
      writeFileSync(file, '')
      const dataDir = path.join(file, 'data')
      const error = refusal(() => readServerConfig({ DATA_DIR: dataDir }))
      expect(error.message).toContain(`DATA_DIR ${dataDir} cannot be created or written (ENOTDIR)`)
    })

    it('is refused even when a SESSION_SECRET means no secret has to be kept there', () => {
      mkdirSync(path.join(root, 'blocked'))
      writeFileSync(path.join(root, 'blocked', 'data'), '')
      const error = refusal(() => readServerConfig({ DATA_DIR: path.join(root, 'blocked', 'data'), SESSION_SECRET: SECRET }))
      expect(error.message).toMatch(/DATA_DIR .*blocked\/data cannot be created or written/)
    })
  })
})
