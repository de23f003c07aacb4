import { ClientClosedError, ClientOfflineError, SocketClosedUnexpectedlyError } from 'redis'

/**
 * Whether a store's unavailable error was a command refused because Redis is gone: the client
 * knew it was offline, or its connection closed under the command. A command queued until Redis
 * comes back would instead fail at its time-out (the Redis client's `TimeoutError`, or the
 * sessions store's `ReplyTimeoutError`), however fast the machine: this says "at once" without a clock.
 */
export function refusedAsOffline(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined
  return cause instanceof ClientOfflineError || cause instanceof SocketClosedUnexpectedlyError || cause instanceof ClientClosedError
}
