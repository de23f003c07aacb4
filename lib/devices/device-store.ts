import type { Operation } from 'effection'

/** The browser an identity was made in: it has no browser id in its cookie, and is listed under this one. */
export const FIRST_BROWSER = 'first'

/** One browser of an identity, as the list of devices shows it. */
export interface DeviceBrowser {
  /** `FIRST_BROWSER` for the identity's first browser, else the id in the joined browser's cookie (22 characters). */
  id: string
  /** What the browser said it is, summarised from its User-Agent ("Firefox on Android"). */
  name: string
  /** When it joined (epoch ms); for the first browser, when it first made a code. */
  joinedAt: number
}

/** A code kept for its identity: only its hash, never the code. */
export interface StoredCode {
  /** HMAC-SHA256 of the normalised code with the server's secret, base64url. */
  hash: string
  identity: string
  /** Epoch ms after which the code is refused as expired. */
  expiresAt: number
}

/** What taking a code found: the identity it was made for, an expired code (taken too), or nothing. */
export type TakenCode = { identity: string; expired: boolean } | undefined

/**
 * Where the devices of identities are kept: codes (by hash), each identity's browsers, and what
 * was revoked. Every instance on one store sees the same (Redis, or one machine's embedded DB).
 */
export interface DeviceStore {
  readonly kind: 'memory' | 'embedded' | 'redis'
  /**
   * Keeps `code` unless its identity has `maxLive` codes that are not expired at `now` (false).
   * Codes long expired may be forgotten here.
   */
  addCode(code: StoredCode, { now, maxLive }: { now: number; maxLive: number }): Operation<boolean>
  /**
   * Takes the code with `hash`, atomically: of two takes of one code, exactly one finds it.
   * An expired code is taken too (`expired: true`), so that it is answered as expired once,
   * then as unknown. Codes are kept at most an hour past their expiry.
   */
  takeCode(hash: string, now: number): Operation<TakenCode>
  /**
   * Adds (or, for one already there, renames) a browser of `identity`, unless the identity has
   * `maxBrowsers` browsers already (false).
   */
  addBrowser(identity: string, browser: DeviceBrowser, { maxBrowsers }: { maxBrowsers: number }): Operation<boolean>
  /** The identity's browsers, in the order they joined. */
  browsers(identity: string): Operation<DeviceBrowser[]>
  /**
   * Removes a joined browser of `identity` and makes `revoked` say so on every instance (false:
   * no such browser). Its cookie names the identity no more.
   */
  revoke(identity: string, browserId: string): Operation<boolean>
  /**
   * Whether the joined browser `browserId` of `identity` was revoked — asked by the identity
   * cookie for every request of a joined browser (never of a first browser), so it is answered
   * without a round trip: in-process (memory; Redis, from a set kept current by pub/sub) or by
   * a point read of the local database (embedded). Only for browser ids the server signed.
   */
  revoked(identity: string, browserId: string): boolean
}

const STORE_UNAVAILABLE = Symbol.for('chat-app.DeviceStoreUnavailableError')

/** The devices' store could not be reached (Redis down); the request gets a 503 `store_unavailable`. */
export class DeviceStoreUnavailableError extends Error {
  override name = 'DeviceStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

export function isDeviceStoreUnavailable(error: unknown): error is DeviceStoreUnavailableError {
  return error instanceof DeviceStoreUnavailableError || (typeof error === 'object' && error !== null && STORE_UNAVAILABLE in error)
}

/** How long a code is kept past its expiry, to be answered "expired" rather than "wrong". */
export const EXPIRED_CODE_KEPT_MS = 60 * 60 * 1000
