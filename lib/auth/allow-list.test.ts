import { describe, expect, it } from 'vitest'
import { isEmptyList, names, parsePeopleList } from './allow-list'

const person = (email: string, groups: string[] = [], emailVerified = true) => ({ email, groups, emailVerified })

describe('the allow-list', () => {
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
})
