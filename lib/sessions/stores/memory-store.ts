import { encodeSessionRecord, type SessionRecord } from '../session-record'
import { refuseOverLimits, type EventLog, type LoggedEvent, type SessionStore, type StoredSession } from '../session-store'
import { createEventWakeups } from './event-wakeups'
import { readListedRecord, readStoredRecord } from './stored-record'

/** What the memory store keeps per session: the encoded record, never the caller's object. */
export interface MemorySessionEntry {
  text: string
  version: number
  status: SessionRecord['status']
  clientId: string
  expiresAt: number
  keepUntil: number
}

/** The key of a session in a memory store's map. */
export function memorySessionKey(clientId: string, id: string): string {
  return JSON.stringify([clientId, id])
}

const isOpen = (status: SessionRecord['status']) => status === 'waiting' || status === 'running'

/**
 * A `SessionStore` in a `Map`, for unit tests and `SESSION_STORE=memory`: records are kept as
 * encoded JSON text, so every read is decoded afresh and callers never share objects with the
 * store. `sweep` and `list` walk every entry; `countOpen` walks only the sessions written as
 * waiting or running, not the ended ones kept for an hour (a tool start would otherwise pay for
 * every booking of the last hour). Pass `entries` to look at (or tamper with) what is stored.
 */
export function createMemorySessionStore(entries = new Map<string, MemorySessionEntry>()): SessionStore {
  const entryOf = (record: SessionRecord, version: number): MemorySessionEntry => ({
    text: encodeSessionRecord(record),
    version,
    status: record.status,
    clientId: record.clientId,
    expiresAt: record.expiresAt,
    keepUntil: record.keepUntil,
  })

  /** The keys of the entries whose status is open, in step with every write and deletion here. */
  const openKeys = new Set<string>()
  for (const [key, entry] of entries) if (isOpen(entry.status)) openKeys.add(key)

  function keep(key: string, entry: MemorySessionEntry) {
    entries.set(key, entry)
    if (isOpen(entry.status)) openKeys.add(key)
    else openKeys.delete(key)
  }

  function forget(key: string) {
    entries.delete(key)
    openKeys.delete(key)
  }

  function countOpen(clientId: string, now: number) {
    const open = { client: 0, all: 0 }
    for (const key of openKeys) {
      const entry = entries.get(key)
      if (!entry || !isOpen(entry.status) || entry.expiresAt <= now) continue
      open.all++
      if (entry.clientId === clientId) open.client++
    }
    return open
  }

  return {
    kind: 'memory',
    events: createMemoryEventLog(),

    *get(clientId, id) {
      const entry = entries.get(memorySessionKey(clientId, id))
      if (!entry) return undefined
      return { record: readStoredRecord(entry.text, clientId, id), version: entry.version } satisfies StoredSession
    },

    *create(record, limits) {
      const key = memorySessionKey(record.clientId, record.id)
      if (entries.has(key)) return undefined
      if (limits) refuseOverLimits(limits, countOpen(record.clientId, limits.now))
      keep(key, entryOf(record, 1))
      return { record, version: 1 }
    },

    *update(record, version) {
      const key = memorySessionKey(record.clientId, record.id)
      const entry = entries.get(key)
      if (!entry || entry.version !== version) return undefined
      keep(key, entryOf(record, version + 1))
      return version + 1
    },

    *delete(clientId, id) {
      forget(memorySessionKey(clientId, id))
    },

    *sweep(now) {
      let next: number | undefined
      for (const [key, entry] of entries) {
        if (entry.keepUntil <= now) forget(key)
        else if (next === undefined || entry.keepUntil < next) next = entry.keepUntil
      }
      return next
    },

    *list({ statuses, limit }) {
      const records: SessionRecord[] = []
      for (const [key, entry] of entries) {
        if (records.length >= limit) break
        if (!statuses.includes(entry.status)) continue
        const [clientId, id] = JSON.parse(key) as [string, string]
        const record = readListedRecord(entry.text, clientId, id)
        if (record) records.push(record)
      }
      return records
    },

    *countOpen({ clientId, now }) {
      return countOpen(clientId, now)
    },

    *openOf({ clientId, now, limit }) {
      const open: Array<{ id: string; expiresAt: number }> = []
      for (const key of openKeys) {
        const entry = entries.get(key)
        if (!entry || entry.clientId !== clientId || !isOpen(entry.status) || entry.expiresAt <= now) continue
        open.push({ id: (JSON.parse(key) as [string, string])[1], expiresAt: entry.expiresAt })
      }
      return open.sort((a, b) => a.expiresAt - b.expiresAt).slice(0, limit)
    },
  }
}

/**
 * An `EventLog` in this process: each stream an array with the next id, its ids counting up from
 * 1. A stream past its `keepUntil` is forgotten when it is next touched.
 */
export function createMemoryEventLog(): EventLog {
  const streams = new Map<string, { next: number; events: LoggedEvent[]; keepUntil: number }>()
  const wakeups = createEventWakeups()
  const live = (name: string) => {
    const stream = streams.get(name)
    if (stream && stream.keepUntil <= Date.now()) streams.delete(name)
    return streams.get(name)
  }
  return {
    // eslint-disable-next-line require-yield
    *append(name, data, { maxLength, keepUntil }) {
      let stream = live(name)
      if (!stream) streams.set(name, (stream = { next: 1, events: [], keepUntil }))
      stream.keepUntil = keepUntil
      const ids = data.map((text) => {
        const id = String(stream.next++)
        stream.events.push({ id, data: text })
        return id
      })
      if (stream.events.length > maxLength) stream.events.splice(0, stream.events.length - maxLength)
      wakeups.wake(name)
      return ids
    },
    *read(name, after) {
      const from = Number(after)
      for (;;) {
        const events = (live(name)?.events ?? []).filter((event) => Number(event.id) > from)
        if (events.length > 0) return events
        yield* wakeups.until(name)
      }
    },
    // eslint-disable-next-line require-yield
    *delete(name) {
      streams.delete(name)
      wakeups.wake(name)
    },
  }
}
