/**
 * How the sessions report a failure they get over by themselves (a lease not renewed, which is
 * tried again at its next turn; a call's end not announced, which pages learn from its record):
 * with a stable `code` saying what failed, once. The sessions may not import the server's log, so
 * whoever makes them hands them this: `warnFailure` (lib/http/failure-log.ts), which writes the
 * line at `warn` by `logFailure`'s rule (the error's message only with `LOG_CONTENT=1`).
 */
export type ReportFailure = (code: string, msg: string, error: unknown) => void
