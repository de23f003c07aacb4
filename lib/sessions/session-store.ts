import type { Operation } from 'effection'
import { SessionLimitError } from './errors'
import type { SessionRecord } from './session-record'

/** A record as stored, with the version a compare-and-set must name to replace it. */
export interface StoredSession {
  record: SessionRecord
  version: number
}

/**
 * Where plugin sessions are kept as data, keyed by client identity and session id. Every
 * replacement is a compare-and-set on the version, so of two processes answering the same
 * question only one can record the answer.
 *
 * A store forgets a record after its `keepUntil`, by itself (Redis TTL) or in `sweep`.
 * Reads validate what they read: a corrupted or foreign record throws `SessionRecordError`.
 * A store that cannot be reached throws `SessionStoreUnavailableError`.
 */
export interface SessionStore {
  /** What kind of store this is, for logs and the bench: 'memory', 'embedded' or 'redis'. */
  readonly kind: string
  get(clientId: string, id: string): Operation<StoredSession | undefined>
  /**
   * Store a new record at version 1; undefined when one exists already under its key. With
   * `limits`, refuse it with `SessionLimitError` when the sessions open at `limits.now` (as
   * `countOpen` counts them) already number `limits.perClient` for its client, or `limits.all`
   * in the whole store: counted and created in one atomic step (one round trip to Redis).
   */
  create(record: SessionRecord, limits?: OpenSessionLimits): Operation<StoredSession | undefined>
  /**
   * Replace the record if the stored version is still `version`; the new version, or
   * undefined when another writer came first or the record is gone.
   */
  update(record: SessionRecord, version: number): Operation<number | undefined>
  delete(clientId: string, id: string): Operation<void>
  /**
   * Forget records past their `keepUntil`; when the next one falls due (epoch ms), or
   * undefined when none will or the store expires records itself.
   */
  sweep(now: number): Operation<number | undefined>
  /**
   * The records with `status` in `statuses`, at most `limit` of them, in no particular order (for
   * inspection and limits). A record that cannot be read is left out; `get` reports it.
   */
  list(options: { statuses: readonly SessionRecord['status'][]; limit: number }): Operation<SessionRecord[]>
  /**
   * How many sessions are open at `now`: status `waiting` or `running` with `expiresAt` after
   * `now` (a waiting one not yet expired, a running one within its lease) — `client`, of the
   * client `clientId`, and `all`, of every client, in one read (one round trip to Redis). Reads
   * indexes, never the records, so the cost does not grow with the records' size (memory store
   * excepted: it walks its map).
   */
  countOpen(options: { clientId: string; now: number }): Operation<{ client: number; all: number }>
  /**
   * The open sessions of `clientId` at `now` (as `countOpen` counts them), soonest to expire
   * first, at most `limit`: their ids and `expiresAt`, read from the same index as `countOpen`.
   * (A holder of MCP sessions keeps one record per session whose `expiresAt` moves with its use:
   * this is its least recently used first.)
   */
  openOf(options: { clientId: string; now: number; limit: number }): Operation<Array<{ id: string; expiresAt: number }>>
  /** Append-only logs of events beside the records, shared as the records are (see `EventLog`). */
  readonly events: EventLog
}

/** One event of an `EventLog` stream: its id (opaque, ordered within the stream) and its text. */
export interface LoggedEvent {
  id: string
  data: string
}

/**
 * Streams of events, each under a name, for readers that may be in another process than the
 * writer (an MCP call's stream: written by the instance that runs a round, read by the one that
 * holds the client's connection). `read` waits without polling: Redis blocks in `XREAD`, the
 * in-process stores wake their readers when they append. Bounded: a stream keeps its newest
 * `maxLength` events, and is forgotten at its `keepUntil` (moved by each append).
 *
 * The memory and embedded stores wake only readers in the process that appended: they serve one
 * instance (the embedded store's events survive its restart, as its records do).
 */
export interface EventLog {
  /** Appends `data` to `stream` in order, in one step (one round trip to Redis); their ids. */
  append(stream: string, data: readonly string[], options: { maxLength: number; keepUntil: number }): Operation<string[]>
  /**
   * The events of `stream` after the one with id `after` (`EVENT_LOG_START`: from the first);
   * when there are none yet, waits until one is appended. Halting the operation ends the wait.
   * `after` is `EVENT_LOG_START` or an id this log gave (the caller checks what a client sent).
   */
  read(stream: string, after: string): Operation<LoggedEvent[]>
  /** Forgets `stream` and its events. */
  delete(stream: string): Operation<void>
}

/** The id before every event of a stream: `read(stream, EVENT_LOG_START)` reads from its first event. */
export const EVENT_LOG_START = '0'

/** Limits on open sessions that `create` checks; an unset one does not apply. */
export interface OpenSessionLimits {
  perClient?: number
  all?: number
  now: number
}

/** Throws `SessionLimitError` when `open` (what `countOpen` counts) leaves no room for one more session under `limits`. */
export function refuseOverLimits(limits: OpenSessionLimits, open: { client: number; all: number }): void {
  if (limits.perClient !== undefined && open.client >= limits.perClient) throw new SessionLimitError('client', limits.perClient)
  if (limits.all !== undefined && open.all >= limits.all) throw new SessionLimitError('all', limits.all)
}

/**
 * Marks every `SessionStoreUnavailableError`, whichever copy of this module made it: the
 * production server opens the chat server from `instrumentation` and runs the routes from
 * another bundle, so an error the store throws reaches a route as another copy's class.
 */
const STORE_UNAVAILABLE = Symbol.for('chat-app.SessionStoreUnavailableError')

/** The store could not be reached (Redis down); the request that needed it gets a 503 (`toChatFailure` in lib/http says what). */
export class SessionStoreUnavailableError extends Error {
  override name = 'SessionStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

/** Whether `error` is a `SessionStoreUnavailableError`, made by this copy of the module or another one. */
export function isSessionStoreUnavailable(error: unknown): error is SessionStoreUnavailableError {
  return error instanceof SessionStoreUnavailableError || (typeof error === 'object' && error !== null && STORE_UNAVAILABLE in error)
}
