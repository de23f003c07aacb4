import { describe, expect, it } from 'vitest'
import { isEmptyList, names, parsePeopleList, peopleListOf } from './people-list'

const person = (email: string, groups: string[] = [], emailVerified = true) => ({ email, groups, emailVerified })

describe('people lists (the allow-list, the admins, an mcp.json entry\'s users)', () => {
  it('names addresses (any case), whole domains and groups, separated by commas or spaces', () => {
    const list = parsePeopleList({ emails: 'Alice@Example.com, @corp.example  bob@other.org', groups: 'eng,ops' })
    expect(names(list, person('alice@example.com'))).toBe(true)
    expect(names(list, person('ALICE@example.com'))).toBe(true)
    expect(names(list, person('dave@corp.example'))).toBe(true)
    expect(names(list, person('dave@sub.corp.example'))).toBe(false)
    expect(names(list, person('carol@other.org'))).toBe(false)
    expect(names(list, person('carol@other.org', ['ops']))).toBe(true)
    expect(names(list, person('mallory@example.com.evil.org'))).toBe(false)
  })

  it('does not count an address the provider did not verify', () => {
    const list = parsePeopleList({ emails: '@example.com' })
    expect(names(list, person('mallory@example.com', [], false))).toBe(false)
  })

  it('refuses what is neither an address nor a domain, naming it', () => {
    expect(() => parsePeopleList({ emails: 'alice@example.com, example.com' })).toThrow(/"example.com" is neither an address/)
  })

  it('knows an empty list', () => {
    expect(isEmptyList(parsePeopleList({ emails: ' , ' }))).toBe(true)
    expect(isEmptyList(parsePeopleList({ groups: 'eng' }))).toBe(false)
  })

  it('reads an mcp.json entry\'s users: addresses, domains and group:<name>, each entry whole', () => {
    const list = peopleListOf(['Alice@Example.com', '@corp.example', 'group:eng', 'group:Chat Admins'])
    expect(names(list, person('alice@example.com'))).toBe(true)
    expect(names(list, person('dave@corp.example'))).toBe(true)
    expect(names(list, person('bob@example.com'))).toBe(false)
    expect(names(list, person('bob@example.com', ['eng']))).toBe(true)
    expect(names(list, person('bob@example.com', ['Chat Admins']))).toBe(true)
    // A group is named only with its prefix: "eng" alone is no address, and "group:" names no group.
    expect(names(list, person('eng@example.com', ['group:eng']))).toBe(false)
    expect(() => peopleListOf(['eng'])).toThrow('"eng" is neither an address (alice@example.com), a domain (@example.com) nor a group (group:eng)')
    expect(() => peopleListOf(['group:'])).toThrow(/"group:" is neither/)
    expect(isEmptyList(peopleListOf([]))).toBe(true)
  })
})
