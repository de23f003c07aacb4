import { serverLogger, type Logger } from '../telemetry'

/**
 * A failure nobody expected on a request's path (a turn that crashed, a store write that failed
 * with an error of no code of ours), written once to the server's log at `error` with a code
 * saying where it happened and the error's name: never its message or stack unless
 * `LOG_CONTENT=1`, since an error may quote what was sent (a model's, a tool's, a store's message
 * with the person's words in it).
 */
export function logFailure(code: string, msg: string, error: unknown, logger: Logger = serverLogger()): void {
  if (!logger.enabled('error')) return
  const known = error instanceof Error
  logger.error(msg, {
    code,
    errorType: known ? error.name : typeof error,
    message: logger.content ? (known ? error.message : String(error)) : undefined,
    stack: logger.content && known ? error.stack : undefined,
  })
}
