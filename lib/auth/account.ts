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
  /** Never true for an account that signed in (kept for a guest's budget to key on). */
  isGuest: boolean
}

/**
 * The account's stable id: SHA-256 of the issuer and the provider's subject, base64url. The
 * subject is unique only within its issuer, hence both; the hash keeps the id inside the
 * identity cookie's alphabet and length, so the whole app takes it as any browser identity.
 */
export function accountIdOf(issuer: string, subject: string): string {
  return createHash('sha256').update(`${issuer}\n${subject}`).digest('base64url')
}
