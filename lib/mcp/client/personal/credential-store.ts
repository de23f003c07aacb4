import type { Operation } from 'effection'

/**
 * Where each person's credentials for the servers of `mcp.json` are kept: their OAuth tokens,
 * the values of an entry's `userVariables`, the app's registrations at authorization servers,
 * and the authorizations under way (by their `state`). The store holds opaque text only: every
 * value is sealed (`sealed-credentials.ts`) before it gets here, so neither a copy of the
 * database nor Redis shows a token. Three kinds, as the app's other stores: memory, embedded
 * (`DATA_DIR/mcp-credentials.db`), Redis.
 */
export interface CredentialStore {
  readonly kind: 'memory' | 'embedded' | 'redis'
  /** Keep `sealed` under `key`, until `expiresAt` (ms since the epoch) when set. */
  put(key: string, sealed: string, expiresAt?: number): Operation<void>
  get(key: string, now: number): Operation<string | undefined>
  /** Read and forget in one step: of two takers of one key, exactly one gets the value. */
  take(key: string, now: number): Operation<string | undefined>
  delete(key: string): Operation<void>
}

const STORE_UNAVAILABLE = Symbol.for('chat-app.CredentialStoreUnavailableError')

/** The credentials' store could not be reached (Redis down). */
export class CredentialStoreUnavailableError extends Error {
  override name = 'CredentialStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

export function isCredentialStoreUnavailable(error: unknown): error is CredentialStoreUnavailableError {
  return typeof error === 'object' && error !== null && STORE_UNAVAILABLE in error
}
