import type { Operation } from 'effection'
import type { PluginSession } from './plugin-session'

export interface ToolSessionEntry {
  session: PluginSession
  lastActiveAt: number
}

/**
 * Where live sessions are kept, keyed by client identity and session id. Entries come back
 * from `oldest()` in order of last activity, which is all the expiry needs.
 */
export interface ToolSessionStore {
  get(key: string): Operation<ToolSessionEntry | undefined>
  set(key: string, entry: ToolSessionEntry): Operation<void>
  delete(key: string): Operation<void>
  /** Mark activity now: the entry becomes the newest. */
  touch(key: string, at: number): Operation<void>
  oldest(): Operation<ToolSessionEntry | undefined>
  list(): Operation<ToolSessionEntry[]>
}

/** An in-process store: a Map whose insertion order is kept equal to activity order. */
export function createInMemorySessionStore(): ToolSessionStore {
  const entries = new Map<string, ToolSessionEntry>()
  return {
    *get(key) {
      return entries.get(key)
    },
    *set(key, entry) {
      entries.delete(key)
      entries.set(key, entry)
    },
    *delete(key) {
      entries.delete(key)
    },
    *touch(key, at) {
      const entry = entries.get(key)
      if (!entry) return
      entries.delete(key)
      entries.set(key, { ...entry, lastActiveAt: at })
    },
    *oldest() {
      for (const entry of entries.values()) return entry
      return undefined
    },
    *list() {
      return [...entries.values()]
    },
  }
}
