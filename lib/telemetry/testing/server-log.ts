import { createLogger, type Logger, type LogLevel } from '../logger'

const globalForLog = globalThis as typeof globalThis & { serverLogger?: Logger }

/**
 * The server's log (`serverLogger()`) written into `lines` instead of stdout, each line parsed as
 * the JSON it is, at `level` (default debug) and with `LOG_CONTENT` as `content` says; `restore`
 * puts back the logger there was. For tests that assert what the operator reads.
 */
export function captureServerLog({ level = 'debug', content = false }: { level?: LogLevel; content?: boolean } = {}): { lines: Array<Record<string, unknown>>; restore(): void } {
  const before = globalForLog.serverLogger
  const lines: Array<Record<string, unknown>> = []
  globalForLog.serverLogger = createLogger({ level, pretty: false, content, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) })
  return {
    lines,
    restore: () => {
      globalForLog.serverLogger = before
    },
  }
}
