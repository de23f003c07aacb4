import { createHash } from 'node:crypto'
import type { Person } from '../http'

/**
 * Who a signed-in person is, as the app keys work on them (chats, sessions, approvals, frames)
 * and as a budget or a rule may key on them. `id` is the app's identity (`clientId`): the same
 * for every browser and device the person signs in on, and for no one else.
 */
export interface Account extends Person {
  /** `accountIdOf(issuer, sub)`: 43 characters of base64url, a valid identity id. */
  id: string
  /** The ID token's `name` (or the email when the provider gives none). */
  name: string
  /** The groups the provider names (the `groups` claim, or `AUTH_GROUPS_CLAIM`). */
  groups: string[]
  /**
   * A guest (`AUTH_GUESTS=on`): someone chatting without signing in, as their browser identity
   * (`guestOf`). Never an admin, named by no allow-list: what a guest may use (MCP servers, say)
   * is decided on this flag. False for everyone who signed in.
   */
  isGuest: boolean
}

/** A guest as an `Account`: the browser identity's id, no address, no group, never an admin. */
export function guestOf(clientId: string): Account {
  return { id: clientId, email: '', emailVerified: false, name: 'Guest', groups: [], isAdmin: false, isGuest: true }
}

const ACCOUNT_ID = /^[A-Za-z0-9_-]{43}$/

/**
 * Whether `clientId` is a signed-in account's (`accountIdOf`: 43 characters) rather than a
 * browser identity's (24 random bytes: 32 characters, lib/http/client-identity.ts) — the one
 * fact the model budgets need to give a guest the guest's limit, read from the id every layer
 * already carries. Ids are made only by this server (signed cookies, or this hash), so neither
 * kind can pass for the other.
 */
export function isAccountId(clientId: string): boolean {
  return ACCOUNT_ID.test(clientId)
}

/**
 * The account's stable id: SHA-256 of the issuer and the provider's subject, base64url. The
 * subject is unique only within its issuer, hence both; the hash keeps the id inside the
 * identity cookie's alphabet and length, so the whole app takes it as any browser identity.
 */
export function accountIdOf(issuer: string, subject: string): string {
  return createHash('sha256').update(`${issuer}\n${subject}`).digest('base64url')
}
