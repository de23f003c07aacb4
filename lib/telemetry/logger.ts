/**
 * The server's log: one JSON object per line on stdout (`LOG_LEVEL`: debug, info, warn, error or
 * silent; default info), or, when stdout is a terminal (`npm start` by hand), the same lines made
 * readable. Each line has `time` (ISO 8601), `level`, `msg`, then its fields. Fields are plain
 * values chosen by the caller: never a message's text, an answer, a cookie or a token — except
 * where `content` says contents may be logged (`LOG_CONTENT=1`), and then never a cookie or a token.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

/** The values a log line may carry: flat, so that every line is one shallow JSON object. */
export type LogFields = Record<string, string | number | boolean | undefined>

export interface Logger {
  readonly level: LogLevel
  /** Whether lines may carry contents (`LOG_CONTENT=1`): a turn error's or a refusal's message, an answer's rejection. */
  readonly content: boolean
  /** Whether a line at `level` is written: check it before gathering costly fields. */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[]

export interface LoggerOptions {
  level: LogLevel
  /** Readable lines instead of JSON (stdout is a terminal). */
  pretty: boolean
  /** Contents may be logged (`LOG_CONTENT=1`); default false. */
  content?: boolean
  /** Where each line goes (with its newline). */
  write: (line: string) => void
  now?: () => Date
}

export function createLogger({ level, pretty, content = false, write, now = () => new Date() }: LoggerOptions): Logger {
  const threshold = RANK[level]
  const line = (at: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: LogFields) => {
    if (RANK[at] < threshold) return
    const time = now()
    write(pretty ? prettyLine(time, at, msg, fields) : `${JSON.stringify({ time: time.toISOString(), level: at, msg, ...fields })}\n`)
  }
  return {
    level,
    content,
    enabled: (at) => RANK[at] >= threshold,
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  }
}

/** `12:04:05.123 INFO  request method=POST route=/api/chat status=200 durationMs=12.5` */
function prettyLine(time: Date, level: string, msg: string, fields: LogFields | undefined): string {
  const clock = time.toISOString().slice(11, 23)
  let text = `${clock} ${level.toUpperCase().padEnd(5)} ${msg}`
  if (fields) for (const [key, value] of Object.entries(fields)) if (value !== undefined) text += ` ${key}=${value}`
  return `${text}\n`
}

/** `LOG_LEVEL`, or `info`; anything else is a mistake the start reports. */
export function readLogLevel(env: Record<string, string | undefined> = process.env): LogLevel {
  const text = env.LOG_LEVEL?.trim().toLowerCase()
  if (!text) return 'info'
  if ((LOG_LEVELS as string[]).includes(text)) return text as LogLevel
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}".`)
}

/** `LOG_CONTENT`: `1` (or `true`) lets lines carry contents; unset, `0` or `false` not; anything else is a mistake the start reports. */
export function readLogContent(env: Record<string, string | undefined> = process.env): boolean {
  const text = env.LOG_CONTENT?.trim().toLowerCase()
  if (!text || text === '0' || text === 'false') return false
  if (text === '1' || text === 'true') return true
  throw new Error(`LOG_CONTENT must be 1 or 0; got "${env.LOG_CONTENT}".`)
}

const globalForLog = globalThis as typeof globalThis & { serverLogger?: Logger }

/**
 * The process's logger, made at the first call from `LOG_LEVEL` and whether stdout is a terminal;
 * kept on globalThis, since the routes run from another bundle than instrumentation. The start
 * calls it first, so that a wrong `LOG_LEVEL` or `LOG_CONTENT` stops it with a message.
 */
export function serverLogger(): Logger {
  globalForLog.serverLogger ??= createLogger({
    level: readLogLevel(),
    content: readLogContent(),
    pretty: Boolean(process.stdout.isTTY),
    write: (line) => void process.stdout.write(line),
  })
  return globalForLog.serverLogger
}
