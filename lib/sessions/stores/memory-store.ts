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
  }
}
