/**
 * The session was changed by someone else since this process last wrote it (another
 * instance continued it, or it was stopped): this process's copy of the tool must stop.
 */
export class SessionConflictError extends Error {
  override name = 'SessionConflictError'
}

/**
 * A new session would pass a limit on open sessions (per client, or on the whole server): the
 * tool call gets an error the model can read, and nothing is stored.
 */
export class SessionLimitError extends Error {
  override name = 'SessionLimitError'

  constructor(
    /** Which limit: the client's, or the whole store's. */
    readonly which: 'client' | 'all',
    readonly limit: number,
  ) {
    super(
      which === 'client'
        ? `this browser already has ${limit} tools waiting for answers or running. Answer or stop one of them, then ask again.`
        : `the server has ${limit} tools waiting for answers or running, its limit. Try again in a few minutes.`,
    )
  }
}
