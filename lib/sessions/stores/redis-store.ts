import { ensure, resource, until, type Operation } from 'effection'
import { createClient, defineScript, ErrorReply, type CommandParser } from 'redis'
import { createStoreClient, REDIS_CONNECT_TIMEOUT_MS, type RedisOutage } from '../../storage/redis-client'
import { encodeSessionRecord, SessionRecordError, type SessionRecord } from '../session-record'
import { SessionLimitError } from '../errors'
import { SessionStoreUnavailableError, type EventLog, type LoggedEvent, type SessionStore, type StoredSession } from '../session-store'
import { createReplyDeadlines } from './reply-deadlines'
import { readListedRecord, readStoredRecord } from './stored-record'

export interface RedisSessionStoreOptions {
  /** `REDIS_URL`, e.g. `redis://127.0.0.1:6379`. */
  url: string
  /** Put before every key, so that several apps can share one Redis. */
  prefix?: string
  /** Told when Redis becomes unreachable and reachable again (the server logs it: this store is the one told, for all). */
  onOutage?: (outage: RedisOutage) => void
}

export type { RedisOutage }

/** A command that has no answer within this time fails, as if Redis were down. */
const COMMAND_TIMEOUT_MS = 500
/** Keys read per SCAN round trip in `list`. */
const SCAN_COUNT = 200
/** Connections kept open for blocking reads of the event log, beyond those in use. */
const IDLE_READERS = 8

/**
 * The Redis key of a session: `<prefix>session:<clientId>:<id>`, both URI-encoded so that no
 * two (clientId, id) pairs share a key. A hash with fields `version`, `status` and `data`.
 */
export function redisSessionKey(prefix: string, clientId: string, id: string): string {
  return `${prefix}session:${encodeURIComponent(clientId)}:${encodeURIComponent(id)}`
}

/**
 * The keys of the open-session indexes: sorted sets scored by `expiresAt`, of every waiting or
 * running session — one per client (members: ids), and one for the whole store (members:
 * `<clientId>:<id>`, URI-encoded). `countOpen` is a ZCOUNT; every write drops what expired.
 */
export function redisOpenKeys(prefix: string, clientId: string): { client: string; all: string } {
  return { client: `${prefix}open:${encodeURIComponent(clientId)}`, all: `${prefix}open` }
}

/**
 * Keeps the open-session indexes (KEYS[2] the client's, KEYS[3] the store's) in step with a
 * write of the session KEYS[1]: ARGV[1] id, ARGV[2] member of the store's set, ARGV[3] status,
 * ARGV[4] expiresAt, ARGV[5] keepUntil, ARGV[6] now.
 */
const INDEX_OPEN = `
local function indexOpen(status, expiresAt, keepUntil, now)
  if status == 'waiting' or status == 'running' then
    redis.call('ZADD', KEYS[2], expiresAt, ARGV[1])
    redis.call('ZADD', KEYS[3], expiresAt, ARGV[2])
    redis.call('PEXPIREAT', KEYS[2], keepUntil, 'GT')
    if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIREAT', KEYS[2], keepUntil) end
  else
    redis.call('ZREM', KEYS[2], ARGV[1])
    redis.call('ZREM', KEYS[3], ARGV[2])
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
end`

interface IndexArguments {
  id: string
  member: string
  status: string
  expiresAt: number
  keepUntil: number
  now: number
}

function pushIndexArguments(parser: CommandParser, keys: { session: string; client: string; all: string }, index: IndexArguments) {
  parser.pushKey(keys.session)
  parser.pushKey(keys.client)
  parser.pushKey(keys.all)
  parser.push(index.id, index.member, index.status, String(index.expiresAt), String(Math.ceil(index.keepUntil)), String(index.now))
}

/**
 * Creates the record unless the key exists (0) or the sessions open after ARGV[6] number
 * ARGV[8] or more for its client (-1) or ARGV[9] or more in the store (-2), a limit of -1 being
 * none; 1 when created.
 */
const createScript = defineScript({
  NUMBER_OF_KEYS: 3,
  SCRIPT: `${INDEX_OPEN}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local perClient, all = tonumber(ARGV[8]), tonumber(ARGV[9])
if perClient >= 0 and redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[6], '+inf') >= perClient then return -1 end
if all >= 0 and redis.call('ZCOUNT', KEYS[3], '(' .. ARGV[6], '+inf') >= all then return -2 end
redis.call('HSET', KEYS[1], 'version', 1, 'status', ARGV[3], 'data', ARGV[7])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
indexOpen(ARGV[3], ARGV[4], ARGV[5], ARGV[6])
return 1`,
  parseCommand(parser: CommandParser, keys: { session: string; client: string; all: string }, index: IndexArguments, data: string, limits: { perClient: number; all: number }) {
    pushIndexArguments(parser, keys, index)
    parser.push(data, String(limits.perClient), String(limits.all))
  },
  transformReply: (reply: unknown) => reply as number,
})

/** Replaces the record if its version is ARGV[7]; the new version, or nil. */
const updateScript = defineScript({
  NUMBER_OF_KEYS: 3,
  SCRIPT: `${INDEX_OPEN}
local current = redis.call('HGET', KEYS[1], 'version')
if not current or tonumber(current) ~= tonumber(ARGV[7]) then return false end
local version = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', version, 'status', ARGV[3], 'data', ARGV[8])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
indexOpen(ARGV[3], ARGV[4], ARGV[5], ARGV[6])
return version`,
  parseCommand(parser: CommandParser, keys: { session: string; client: string; all: string }, index: IndexArguments, version: number, data: string) {
    pushIndexArguments(parser, keys, index)
    parser.push(String(version), data)
  },
  transformReply: (reply: unknown) => reply as number | null,
})

/**
 * A `SessionStore` in Redis, shared by every instance that uses the same Redis and prefix.
 * Each record is a hash (`version`, `status`, `data`); `create` and `update` are Lua scripts
 * (EVALSHA, loaded on demand), so the compare-and-set is atomic in Redis, and every write sets
 * `PEXPIREAT keepUntil`, so Redis forgets records by itself and `sweep` does nothing. `list`
 * walks the keys with SCAN until it has `limit` records.
 *
 * While Redis is unreachable every operation fails at once with
 * `SessionStoreUnavailableError` (no offline queue; a command unanswered within 500 ms fails
 * too), and the client reconnects by itself with back-off (at most 1 s between attempts).
 * Fails at start, naming the URL, when Redis cannot be reached then.
 *
 * Measured on our 2-core VM against a local redis-server (a 1.3 KB record): a CAS update costs
 * about 0.35 ms (p50) when idle and 0.16 ms back to back; a `get` about 0.14 ms.
 */
export function useRedisSessionStore({ url, prefix = 'elicit:', onOutage }: RedisSessionStoreOptions): Operation<SessionStore> {
  return resource(function* (provide) {
    const redis = createStoreClient({
      url,
      scripts: { createSession: createScript, updateSession: updateScript },
      store: 'The session store',
      Unavailable: SessionStoreUnavailableError,
      jitterMs: 50,
      onOutage,
    })
    const { client } = redis
    // A command unanswered within COMMAND_TIMEOUT_MS fails (Redis hung, or the network gone quiet).
    const deadlines = createReplyDeadlines(COMMAND_TIMEOUT_MS)
    yield* ensure(() => {
      deadlines.close()
      client.destroy()
    })

    yield* redis.connect()

    /** Runs a command within COMMAND_TIMEOUT_MS (`redis.command`); a key of another type is a record this store cannot read. */
    function* command<T>(send: () => Promise<T>): Operation<T> {
      try {
        return yield* redis.command<T>(() => deadlines.within(send()))
      } catch (error) {
        if (error instanceof ErrorReply && error.message.startsWith('WRONGTYPE')) {
          throw new SessionRecordError('The stored session is not a Redis hash in the session store’s format.')
        }
        throw error
      }
    }

    const keyOf = (clientId: string, id: string) => redisSessionKey(prefix, clientId, id)
    const keysOf = (record: SessionRecord) => ({ session: keyOf(record.clientId, record.id), ...redisOpenKeys(prefix, record.clientId) })
    const indexOf = (record: SessionRecord): IndexArguments => ({
      id: record.id,
      member: `${encodeURIComponent(record.clientId)}:${encodeURIComponent(record.id)}`,
      status: record.status,
      expiresAt: record.expiresAt,
      keepUntil: record.keepUntil,
      now: Date.now(),
    })

    /**
     * The event log in Redis Streams (`<prefix>events:<name>`): an append is one MULTI of XADDs
     * (MAXLEN ~ trimmed) and a PEXPIREAT; a read is `XREAD BLOCK 0` on a connection of its own,
     * since a blocked connection answers nothing else. Readers' connections are kept for the
     * next reader when a read returns, and destroyed when a read is halted mid-wait (a client
     * that went away), which is what ends the blocked command.
     */
    const idleReaders: EventReader[] = []
    yield* ensure(() => {
      for (const reader of idleReaders.splice(0)) reader.destroy()
    })
    const eventsKey = (name: string) => `${prefix}events:${name}`
    const events: EventLog = {
      *append(name, data, { maxLength, keepUntil }) {
        const key = eventsKey(name)
        const replies = yield* command(() => {
          const multi = client.multi()
          for (const text of data) multi.addCommand(['XADD', key, 'MAXLEN', '~', String(maxLength), '*', 'd', text])
          multi.addCommand(['PEXPIREAT', key, String(Math.ceil(keepUntil))])
          return multi.exec()
        })
        return replies.slice(0, data.length).map(String)
      },
      *read(name, after) {
        let reader = idleReaders.pop()
        let done = false
        try {
          if (!reader) {
            const connecting: EventReader = createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: REDIS_CONNECT_TIMEOUT_MS, reconnectStrategy: false } })
            // A reader whose connection fails fails its read; the event must not crash the process.
            connecting.on('error', () => {})
            reader = connecting
            yield* command(() => connecting.connect())
          }
          const blocked: EventReader = reader
          const reading = blocked.sendCommand(['XREAD', 'BLOCK', '0', 'STREAMS', eventsKey(name), after]).catch((error: unknown) => {
            throw redis.unavailable(error)
          })
          // Awaited here. Halted, its connection is destroyed below, which rejects it at once (into `until`'s handler, attached now): no read outlives this one.
          const reply = yield* until(reading)
          done = true
          // One stream asked for: its entries, whether the reply is a map of streams (this client's default) or RESP2's pairs.
          const streams = reply == null ? [] : Array.isArray(reply) ? reply.map((pair) => (pair as [unknown, unknown])[1]) : Object.values(reply as object)
          const entries = (streams[0] ?? []) as Array<[string, string[]]>
          return entries.map(([id, fields]): LoggedEvent => ({ id: String(id), data: String(fields[1]) }))
        } finally {
          if (reader && done && idleReaders.length < IDLE_READERS) idleReaders.push(reader)
          else reader?.destroy()
        }
      },
      *delete(name) {
        yield* command(() => client.del(eventsKey(name)))
      },
    }

    const store: SessionStore = {
      kind: 'redis',
      events,

      *get(clientId, id) {
        const [version, data] = yield* command(() => client.hmGet(keyOf(clientId, id), ['version', 'data']))
        if (version == null && data == null) return undefined
        const parsed = Number(version)
        if (data == null || !Number.isInteger(parsed) || parsed < 1) {
          throw new SessionRecordError('The stored session is not a Redis hash in the session store’s format.')
        }
        return { record: readStoredRecord(String(data), clientId, id), version: parsed } satisfies StoredSession
      },

      *create(record, limits) {
        const data = encodeSessionRecord(record)
        const bounds = { perClient: limits?.perClient ?? -1, all: limits?.all ?? -1 }
        const index = limits ? { ...indexOf(record), now: limits.now } : indexOf(record)
        const created = yield* command(() => client.createSession(keysOf(record), index, data, bounds))
        if (created === -1) throw new SessionLimitError('client', bounds.perClient)
        if (created === -2) throw new SessionLimitError('all', bounds.all)
        return created === 1 ? { record, version: 1 } : undefined
      },

      *update(record, version) {
        const data = encodeSessionRecord(record)
        const next = yield* command(() => client.updateSession(keysOf(record), indexOf(record), version, data))
        return next == null ? undefined : Number(next)
      },

      *delete(clientId, id) {
        const open = redisOpenKeys(prefix, clientId)
        yield* command(() =>
          client
            .multi()
            .del(keyOf(clientId, id))
            .zRem(open.client, id)
            .zRem(open.all, `${encodeURIComponent(clientId)}:${encodeURIComponent(id)}`)
            .exec(),
        )
      },

      *countOpen({ clientId, now }) {
        const keys = redisOpenKeys(prefix, clientId)
        // Sent in the same turn, the two ZCOUNTs go out in one write and come back in one read.
        const [mine, all] = yield* command(() => Promise.all([client.zCount(keys.client, `(${now}`, '+inf'), client.zCount(keys.all, `(${now}`, '+inf')]))
        return { client: mine, all }
      },

      *openOf({ clientId, now, limit }) {
        const reply = yield* command(() =>
          client.sendCommand(['ZRANGE', redisOpenKeys(prefix, clientId).client, `(${now}`, '+inf', 'BYSCORE', 'LIMIT', '0', String(limit), 'WITHSCORES']),
        )
        // Pairs of member and score, nested or flat as the protocol version gives them.
        const flat = (reply as unknown as unknown[]).flat().map(String)
        const open: Array<{ id: string; expiresAt: number }> = []
        for (let index = 0; index + 1 < flat.length; index += 2) open.push({ id: flat[index]!, expiresAt: Number(flat[index + 1]) })
        return open
      },

      // Redis forgets each record at its keepUntil (PEXPIREAT): there is nothing to sweep.
      *sweep() {
        return undefined
      },

      *list({ statuses, limit }) {
        const records: SessionRecord[] = []
        const seen = new Set<string>()
        const match = `${escapeGlob(prefix)}session:*`
        let cursor = '0'
        do {
          const page = yield* command(() => client.scan(cursor, { MATCH: match, COUNT: SCAN_COUNT }))
          cursor = String(page.cursor)
          const keys = page.keys.map(String).filter((key) => !seen.has(key))
          keys.forEach((key) => seen.add(key))
          // A key that is not a hash (corrupted) is left out, as `list` leaves out what it cannot read.
          const fields = yield* command(() =>
            Promise.all(keys.map((key) => client.hmGet(key, ['status', 'data']).catch((error: unknown) => ifWrongType(error, [null, null])))),
          )
          for (const [index, [status, data]] of fields.entries()) {
            if (records.length >= limit) break
            if (data == null || !statuses.includes(String(status) as SessionRecord['status'])) continue
            const [clientId, id] = keys[index]!.slice(prefix.length + 'session:'.length).split(':').map(decodeURIComponent)
            const record = readListedRecord(String(data), clientId!, id!)
            if (record) records.push(record)
          }
        } while (cursor !== '0' && records.length < limit)
        return records
      },
    }

    yield* provide(store)
  })
}

/** A connection of its own for blocking reads of the event log. */
interface EventReader {
  sendCommand(args: string[]): Promise<unknown>
  connect(): Promise<unknown>
  destroy(): void
  on(event: 'error', listener: (error: unknown) => void): unknown
}

/** `value` when `error` is Redis refusing a command on a key of another type; `error` thrown otherwise. */
function ifWrongType<T>(error: unknown, value: T): T {
  if (error instanceof ErrorReply && error.message.startsWith('WRONGTYPE')) return value
  throw error
}

/** `text` with the glob characters of SCAN's MATCH escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&')
}
