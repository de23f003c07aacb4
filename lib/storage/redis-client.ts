import { until, type Operation } from 'effection'
import { createClient, ErrorReply, type RedisScripts } from 'redis'

/** A connection attempt that has not succeeded within this time fails. */
export const REDIS_CONNECT_TIMEOUT_MS = 2000
/** The longest wait between two attempts to reconnect. */
const MAX_RECONNECT_DELAY_MS = 1000

/**
 * Redis went out of reach, or came back: `url` without its password; `cause`, the client's
 * description of the connection's error (the network's or Redis's own words, never a command's).
 */
export type RedisOutage = { reachable: false; url: string; cause: string } | { reachable: true; url: string }

export interface StoreClientOptions<S extends RedisScripts> {
  /** `REDIS_URL`. */
  url: string
  /** The store's Lua scripts (EVALSHA, loaded on demand). */
  scripts: S
  /** What the store's unavailable error names, e.g. `The chats' store`. */
  store: string
  /** The store's error for "Redis cannot answer now": its API answers it with a 503 `store_unavailable`. */
  Unavailable: new (message: string, options: { cause: unknown }) => Error
  /** Up to this much is added at random to each reconnect delay, so instances do not retry in step. */
  jitterMs?: number
  /**
   * Told once when Redis becomes unreachable, and once when it is reachable again: the server logs
   * it (one store is told, for all). This layer has no log of its own: the composition root hands it this.
   */
  onOutage?: (outage: RedisOutage) => void
}

/**
 * A store's Redis client, as every Redis store opens it. No offline queue: while Redis is
 * unreachable a command fails at once, as the store's `Unavailable`, and the client reconnects by
 * itself with back-off (at most 1 s between attempts). Before the first connection it gives up
 * instead, so that a wrong URL fails the start at once (`connect`), naming the URL without its
 * password. The store keeps its own scripts, keys, command timeouts and teardown.
 */
export function createStoreClient<S extends RedisScripts>({ url, scripts, store, Unavailable, jitterMs = 0, onOutage }: StoreClientOptions<S>) {
  const redacted = redactUrl(url)
  /** How messages name the server: `Redis at <url without its password>`. */
  const where = `Redis at ${redacted}`
  let everReady = false
  let ready = false
  let lastError: unknown

  const client = createClient({
    url,
    disableOfflineQueue: true,
    scripts,
    socket: {
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      // Before the first connection: give up, so that a wrong URL fails the start at once.
      reconnectStrategy: (retries, cause) => (everReady ? Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) + Math.floor(Math.random() * jitterMs) : cause),
    },
  })
  // Without a listener, an 'error' event would crash the process.
  client.on('error', (error: unknown) => {
    lastError = error
    if (onOutage && ready) onOutage({ reachable: false, url: redacted, cause: describeRedisError(error) })
    ready = false
  })
  client.on('ready', () => {
    if (onOutage && everReady && !ready) onOutage({ reachable: true, url: redacted })
    everReady = ready = true
  })

  /** The store's unavailable error for a command that failed with `error`. */
  function unavailable(error: unknown): Error {
    return new Unavailable(`${store} (${where}) is unavailable: ${describeRedisError(error)}`, { cause: error })
  }

  return {
    client,
    where,
    unavailable,

    /** A second connection (a subscriber: it takes no other commands); its errors say why a start failed too. */
    duplicate() {
      const other = client.duplicate()
      other.on('error', (error: unknown) => {
        lastError = error
      })
      return other
    },

    /** Connects the client, then `others` (its duplicates); fails naming the URL and `REDIS_URL` when Redis cannot be reached. */
    *connect(...others: Array<{ connect(): Promise<unknown> }>): Operation<void> {
      try {
        yield* until(client.connect())
        for (const other of others) yield* until(other.connect())
      } catch (error) {
        throw new Error(`Cannot connect to ${where}: ${describeRedisError(lastError ?? error)}. Start Redis there or correct REDIS_URL.`, { cause: error })
      }
    },

    /**
     * Runs a command, sent now (not a microtask later: the client writes what is queued in this
     * turn of the event loop). No answer, or a reply saying Redis cannot serve now (loading,
     * busy, failing over, read-only, out of memory…), fails as the store's `Unavailable`; any
     * other reply is the command refused, thrown as it is.
     */
    *command<T>(send: () => Promise<unknown>): Operation<T> {
      try {
        // It also throws synchronously while disconnected: caught below like a rejection.
        return (yield* until(send())) as T
      } catch (error) {
        if (error instanceof ErrorReply && !/^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF|OOM|TRYAGAIN|CLUSTERDOWN)\b/.test(error.message)) throw error
        throw unavailable(error)
      }
    },
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return url
  }
}

/** A readable cause: Node gives a refused connection to localhost as an AggregateError with no message. */
function describeRedisError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeRedisError(error.errors[0])
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name
  return String(error)
}
