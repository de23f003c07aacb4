import { ConfigError, type Environment } from './config-error'

/** The server's limits, each from its environment variable (docs/deploying.md, "Limits"). */
export interface ServerLimits {
  /** `MAX_WAITING_SESSIONS_PER_CLIENT`: tools one browser may have waiting for an answer (or running). */
  maxWaitingSessionsPerClient: number
  /** `MAX_WAITING_SESSIONS`: the same, for every browser together. */
  maxWaitingSessions: number
  /** `MAX_TOOL_CALLS_PER_STEP`: tool calls run per model step; the rest get a tool error the model reads. */
  maxToolCallsPerStep: number
  /** `MAX_MODEL_STEPS_PER_TURN`: model calls per turn. */
  maxModelStepsPerTurn: number
  /** `MAX_OUTPUT_TOKENS`: output tokens per model call (chat step or sample). */
  maxOutputTokens: number
  /** `MODEL_TIMEOUT_MS`: a model call (chat step or sample) fails after this long. */
  modelTimeoutMs: number
  /** `RATE_LIMIT_BURST` and `RATE_LIMIT_PER_SECOND`: chat requests per client address, at once and sustained. */
  rateBurst: number
  ratePerSecond: number
  /** `RATE_LIMIT_GLOBAL_BURST` and `RATE_LIMIT_GLOBAL_PER_SECOND`: chat requests to the whole server. */
  globalRateBurst: number
  globalRatePerSecond: number
  /** `RATE_LIMIT_FAIR_SHARE`: new requests an address may have made lately and still be served when the server's budget is down to its reserve. */
  fairShareRequests: number
  /** `RATE_LIMIT_FAIR_SHARE_GROUP`: the same for an IPv4 /24 or an IPv6 /48. */
  fairShareGroupRequests: number
  /** `MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS`: chat requests one client address may have being answered at once. */
  maxRequestsInFlightPerAddress: number
  /** `TOOL_STARTS_BURST` and `TOOL_STARTS_PER_MINUTE`: tools one client address may start, at once and sustained. */
  toolStartsBurst: number
  toolStartsPerMinute: number
  /** `TOOL_CONTEXT_MAX_BYTES`: the most of the conversation a tool keeps as `ctx.parentMessages` while it waits. */
  toolContextMaxBytes: number
  /** `TRUST_PROXY=1`: the client address is the last `X-Forwarded-For` entry, added by the proxy in front. */
  trustProxy: boolean
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxWaitingSessionsPerClient: 20,
  maxWaitingSessions: 10_000,
  maxToolCallsPerStep: 8,
  maxModelStepsPerTurn: 8,
  maxOutputTokens: 4096,
  modelTimeoutMs: 120_000,
  rateBurst: 60,
  ratePerSecond: 5,
  globalRateBurst: 400,
  globalRatePerSecond: 200,
  fairShareRequests: 4,
  fairShareGroupRequests: 16,
  maxRequestsInFlightPerAddress: 8,
  toolStartsBurst: 30,
  toolStartsPerMinute: 12,
  toolContextMaxBytes: 16 * 1024,
  trustProxy: false,
}

const VARIABLES: Record<Exclude<keyof ServerLimits, 'trustProxy'>, string> = {
  maxWaitingSessionsPerClient: 'MAX_WAITING_SESSIONS_PER_CLIENT',
  maxWaitingSessions: 'MAX_WAITING_SESSIONS',
  maxToolCallsPerStep: 'MAX_TOOL_CALLS_PER_STEP',
  maxModelStepsPerTurn: 'MAX_MODEL_STEPS_PER_TURN',
  maxOutputTokens: 'MAX_OUTPUT_TOKENS',
  modelTimeoutMs: 'MODEL_TIMEOUT_MS',
  rateBurst: 'RATE_LIMIT_BURST',
  ratePerSecond: 'RATE_LIMIT_PER_SECOND',
  globalRateBurst: 'RATE_LIMIT_GLOBAL_BURST',
  globalRatePerSecond: 'RATE_LIMIT_GLOBAL_PER_SECOND',
  fairShareRequests: 'RATE_LIMIT_FAIR_SHARE',
  fairShareGroupRequests: 'RATE_LIMIT_FAIR_SHARE_GROUP',
  maxRequestsInFlightPerAddress: 'MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS',
  toolStartsBurst: 'TOOL_STARTS_BURST',
  toolStartsPerMinute: 'TOOL_STARTS_PER_MINUTE',
  toolContextMaxBytes: 'TOOL_CONTEXT_MAX_BYTES',
}

/** The limits in `env`; a `ConfigError` naming the variable for a value that is not a positive number. */
export function readServerLimits(env: Environment): ServerLimits {
  const limits = { ...DEFAULT_LIMITS }
  for (const [field, name] of Object.entries(VARIABLES) as Array<[keyof typeof VARIABLES, string]>) {
    const text = env[name]?.trim()
    if (!text) continue
    const value = Number(text)
    const whole = field !== 'ratePerSecond' && field !== 'globalRatePerSecond' && field !== 'toolStartsPerMinute'
    if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
      throw new ConfigError(`${name} must be a positive ${whole ? 'whole number' : 'number'} (default ${DEFAULT_LIMITS[field]}); got "${text}".`)
    }
    limits[field] = value
  }
  const trust = env.TRUST_PROXY?.trim()
  if (trust && trust !== '0' && trust !== '1') throw new ConfigError(`TRUST_PROXY must be 1 (behind a proxy that sets X-Forwarded-For) or 0; got "${trust}".`)
  limits.trustProxy = trust === '1'
  return limits
}
