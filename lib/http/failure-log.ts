import { serverLogger, type Logger } from '../telemetry'

export interface FailureLogOptions {
  /** `error` (the default) for work lost; `warn` for a failure the server gets over by itself (a stream the client resumes, a lease renewed at the next turn). */
  level?: 'warn' | 'error'
  /**
   * A description of our own that cannot quote anything a person sent (a connection error's, a
   * config file's validation error): on the line always, as `detail`.
   */
  detail?: string
  logger?: Logger
}

/**
 * A failure nobody expected (a turn that crashed, a store write that failed with an error of no
 * code of ours, a background task that could not do its work), written once to the server's log
 * with a code saying what failed and the error's name: never its message or stack unless
 * `LOG_CONTENT=1`, since an error may quote what was sent (a model's, a tool's, a store's message
 * with the person's words in it). The one way the server's code reports a failure: the layers
 * that may not import this one are handed `warnFailure` (lib/sessions' `ReportFailure`), or tell
 * the composition root what they saw (lib/storage's Redis outages). docs/operating.md lists the codes.
 */
export function logFailure(code: string, msg: string, error: unknown, { level = 'error', detail, logger = serverLogger() }: FailureLogOptions = {}): void {
  if (!logger.enabled(level)) return
  const known = error instanceof Error
  logger[level](msg, {
    code,
    errorType: known ? error.name : typeof error,
    detail,
    message: logger.content ? (known ? error.message : String(error)) : undefined,
    stack: logger.content && known ? error.stack : undefined,
  })
}

/** `logFailure` at `warn`: what the layers below the edge are handed to report a failure they get over by themselves (lib/sessions' `ReportFailure`). */
export function warnFailure(code: string, msg: string, error: unknown): void {
  logFailure(code, msg, error, { level: 'warn' })
}
