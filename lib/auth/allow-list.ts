/**
 * Who a list names: addresses (`alice@example.com`), whole domains (`@example.com`) and groups.
 * `AUTH_ALLOWED_EMAILS` and `AUTH_ALLOWED_GROUPS` make one; so do `AUTH_ADMIN_EMAILS` and
 * `AUTH_ADMIN_GROUPS`.
 */
export interface PeopleList {
  emails: ReadonlySet<string>
  domains: ReadonlySet<string>
  groups: ReadonlySet<string>
}

const EMAIL = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/
const DOMAIN = /^@[^@\s,]+\.[^@\s,]+$/

/** A list from comma- or space-separated `emails` and `groups`; what is not an address or `@domain` is thrown as an Error naming it. */
export function parsePeopleList({ emails = '', groups = '' }: { emails?: string; groups?: string }): PeopleList {
  const list = { emails: new Set<string>(), domains: new Set<string>(), groups: new Set<string>() }
  for (const entry of split(emails).map((entry) => entry.toLowerCase())) {
    if (DOMAIN.test(entry)) list.domains.add(entry.slice(1))
    else if (EMAIL.test(entry)) list.emails.add(entry)
    else throw new Error(`"${entry}" is neither an address (alice@example.com) nor a domain (@example.com)`)
  }
  for (const group of split(groups)) list.groups.add(group)
  return list
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
export function names(list: PeopleList, person: { email: string; emailVerified: boolean; groups: readonly string[] }): boolean {
  if (person.emailVerified && person.email) {
    const email = person.email.toLowerCase()
    if (list.emails.has(email)) return true
    const at = email.lastIndexOf('@')
    if (at > 0 && list.domains.has(email.slice(at + 1))) return true
  }
  return person.groups.some((group) => list.groups.has(group))
}
