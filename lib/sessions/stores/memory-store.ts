import { encodeSessionRecord, type SessionRecord } from '../session-record'
import { refuseOverLimits, type SessionStore, type StoredSession } from '../session-store'
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

/**
 * A `SessionStore` in a `Map`, for unit tests: records are kept as encoded JSON text, so
 * every read is decoded afresh and callers never share objects with the store. `sweep`,
 * `list` and `countOpen` walk every entry. Pass `entries` to look at (or tamper with) what is stored.
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

  function countOpen(clientId: string, now: number) {
    const open = { client: 0, all: 0 }
    for (const entry of entries.values()) {
      if ((entry.status !== 'waiting' && entry.status !== 'running') || entry.expiresAt <= now) continue
      open.all++
      if (entry.clientId === clientId) open.client++
    }
    return open
  }

  return {
    kind: 'memory',

    *get(clientId, id) {
      const entry = entries.get(memorySessionKey(clientId, id))
      if (!entry) return undefined
      return { record: readStoredRecord(entry.text, clientId, id), version: entry.version } satisfies StoredSession
    },

    *create(record, limits) {
      const key = memorySessionKey(record.clientId, record.id)
      if (entries.has(key)) return undefined
      if (limits) refuseOverLimits(limits, countOpen(record.clientId, limits.now))
      entries.set(key, entryOf(record, 1))
      return { record, version: 1 }
    },

    *update(record, version) {
      const key = memorySessionKey(record.clientId, record.id)
      const entry = entries.get(key)
      if (!entry || entry.version !== version) return undefined
      entries.set(key, entryOf(record, version + 1))
      return version + 1
    },

    *delete(clientId, id) {
      entries.delete(memorySessionKey(clientId, id))
    },

    *sweep(now) {
      let next: number | undefined
      for (const [key, entry] of entries) {
        if (entry.keepUntil <= now) entries.delete(key)
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
  }
}
