import type { Operation } from 'effection'
import type { Account } from './account'

/** A signed-in session, as kept in the store: whose it is and when the provider last vouched for them. */
export interface AuthSession {
  /** 24 random bytes, base64url: what the session cookie names (signed). */
  id: string
  account: Account
  /** The provider's subject (for checks against a fresh ID token). */
  subject: string
  /** The provider's refresh token, when it gave one: how the session is checked again. */
  refreshToken?: string
  /** The access token, for userinfo when there is no refresh token. */
  accessToken?: string
  createdAt: number
  /** When the provider and the allow-list last said yes (epoch ms). */
  checkedAt: number
  /** When the session ends whatever happens (epoch ms). */
  expiresAt: number
}

/** A sign-in under way: what the callback checks the provider's answer against. Kept by its `state`, taken once. */
export interface SignInFlow {
  state: string
  nonce: string
  codeVerifier: string
  /** The path to return to (already checked by `safeNextPath`). */
  next: string
  expiresAt: number
}

/**
 * Where sessions and sign-ins under way are kept: the same store as everything else (memory,
 * embedded, Redis), so that a session made on one instance is known to every other, and a
 * sign-out on one holds on all of them at once.
 */
export interface AuthStore {
  readonly kind: 'memory' | 'embedded' | 'redis'
  putFlow(flow: SignInFlow): Operation<void>
  /** Takes the flow of `state`, atomically: of two callbacks with one state, exactly one gets it. Expired ones are not found. */
  takeFlow(state: string, now: number): Operation<SignInFlow | undefined>
  putSession(session: AuthSession): Operation<void>
  /** The session, unless it ended or expired at `now`. */
  getSession(id: string, now: number): Operation<AuthSession | undefined>
  /**
   * Claims the session's check: sets `checkedAt` to `now` only if it is still `seen` (false when
   * another request or instance claimed it first), so that one of them asks the provider.
   */
  claimCheck(id: string, seen: number, now: number): Operation<boolean>
  /** Ends the session (sign-out, or the provider or the allow-list said no). */
  endSession(id: string): Operation<void>
}

const STORE_UNAVAILABLE = Symbol.for('chat-app.AuthStoreUnavailableError')

/** The sessions' store could not be reached (Redis down); the request gets a 503 `store_unavailable`. */
export class AuthStoreUnavailableError extends Error {
  override name = 'AuthStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

export function isAuthStoreUnavailable(error: unknown): error is AuthStoreUnavailableError {
  return typeof error === 'object' && error !== null && STORE_UNAVAILABLE in error
}
