/**
 * The session was changed by someone else since this process last wrote it (another
 * instance continued it, or it was stopped): this process's copy of the tool must stop.
 */
export class SessionConflictError extends Error {
  override name = 'SessionConflictError'
}
