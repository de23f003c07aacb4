import type { CredentialStore } from '../credential-store'

/** A `CredentialStore` in this process's memory (`SESSION_STORE=memory`, tests): lost on restart. */
export function createMemoryCredentialStore(): CredentialStore {
  const kept = new Map<string, { sealed: string; expiresAt?: number }>()
  const live = (key: string, now: number) => {
    const entry = kept.get(key)
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now) kept.delete(key)
    return kept.get(key)?.sealed
  }
  return {
    kind: 'memory',
    *put(key, sealed, expiresAt) {
      kept.set(key, { sealed, ...(expiresAt !== undefined ? { expiresAt } : {}) })
    },
    *get(key, now) {
      return live(key, now)
    },
    *take(key, now) {
      const sealed = live(key, now)
      kept.delete(key)
      return sealed
    },
    *delete(key) {
      kept.delete(key)
    },
  }
}
