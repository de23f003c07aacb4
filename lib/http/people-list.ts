/**
 * Who is asking, once they signed in, and whom a list names. A `Person` is what the edge knows
 * of a signed-in account beyond its id (lib/auth fills it, `ClientIdentity.person` carries it);
 * a `PeopleList` names people by address (`alice@example.com`), whole domain (`@example.com`) or
 * group. `AUTH_ALLOWED_EMAILS` and `AUTH_ALLOWED_GROUPS` make one (who may enter), so do
 * `AUTH_ADMIN_EMAILS` and `AUTH_ADMIN_GROUPS` (the admins), and so does an `mcp.json` entry's
 * `users` (who may use that server's tools, lib/mcp/client/tool-audience.ts).
 */
export interface Person {
  /** The provider's address for them, lower-cased. */
  email: string
  /** Whether the provider verified the address (`email_verified` not false): only then does it count by address or domain. */
  emailVerified: boolean
  /** The groups the provider names (the `groups` claim, or `AUTH_GROUPS_CLAIM`). */
  groups: readonly string[]
  /** Named by `AUTH_ADMIN_EMAILS` or `AUTH_ADMIN_GROUPS`. */
  isAdmin: boolean
}

export interface PeopleList {
  emails: ReadonlySet<string>
  domains: ReadonlySet<string>
  groups: ReadonlySet<string>
}

const EMAIL = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/
const DOMAIN = /^@[^@\s,]+\.[^@\s,]+$/
const GROUP = 'group:'

/** A list from comma- or space-separated `emails` and `groups`; what is not an address or `@domain` is thrown as an Error naming it. */
export function parsePeopleList({ emails = '', groups = '' }: { emails?: string; groups?: string }): PeopleList {
  const list = { emails: new Set<string>(), domains: new Set<string>(), groups: new Set<string>(split(groups)) }
  for (const entry of split(emails)) addAddress(list, entry, `"${entry}" is neither an address (alice@example.com) nor a domain (@example.com)`)
  return list
}

/**
 * A list from entries each of which is an address, an `@domain` or a `group:<name>` (as an
 * `mcp.json` entry's `users` writes them); the first that is none of these is thrown as an Error
 * naming it.
 */
export function peopleListOf(entries: readonly string[]): PeopleList {
  const list = { emails: new Set<string>(), domains: new Set<string>(), groups: new Set<string>() }
  for (const raw of entries) {
    const entry = raw.trim()
    if (entry.startsWith(GROUP) && entry.length > GROUP.length) list.groups.add(entry.slice(GROUP.length))
    else addAddress(list, entry, `"${raw}" is neither an address (alice@example.com), a domain (@example.com) nor a group (group:eng)`)
  }
  return list
}

function addAddress(list: { emails: Set<string>; domains: Set<string> }, entry: string, refusal: string) {
  const lower = entry.toLowerCase()
  if (DOMAIN.test(lower)) list.domains.add(lower.slice(1))
  else if (EMAIL.test(lower)) list.emails.add(lower)
  else throw new Error(refusal)
}

function split(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '')
}

/** Whether the list names nobody. */
export function isEmptyList(list: PeopleList): boolean {
  return list.emails.size === 0 && list.domains.size === 0 && list.groups.size === 0
}

/**
 * Whether the list names the person: their address, its domain, or one of their groups. The
 * address must be one the provider verified (`email_verified` not false) to count by address or
 * domain: otherwise anyone could claim `@example.com` at a provider that lets people type it.
 */
export function names(list: PeopleList, person: Pick<Person, 'email' | 'emailVerified' | 'groups'>): boolean {
  if (person.emailVerified && person.email) {
    const email = person.email.toLowerCase()
    if (list.emails.has(email)) return true
    const at = email.lastIndexOf('@')
    if (at > 0 && list.domains.has(email.slice(at + 1))) return true
  }
  return person.groups.some((group) => list.groups.has(group))
}
