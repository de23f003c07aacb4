import { describe, expect, it } from 'vitest'
import { addressKey, clientAddressOf } from './client-address'

const request = (forwardedFor?: string) =>
  new Request('http://localhost/api/chat', { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } })

describe('clientAddressOf', () => {
  it('takes the last X-Forwarded-For entry: the peer address, or what the trusted proxy appended', () => {
    expect(clientAddressOf(request('127.0.0.1'))).toBe('127.0.0.1')
    expect(clientAddressOf(request('10.0.0.9, 203.0.113.5'))).toBe('203.0.113.5')
    expect(clientAddressOf(request())).toBe('unknown')
  })
})

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('2001:db8:0:1:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64')
    expect(addressKey('2001:db8:0:1::2')).toBe(addressKey('2001:0db8:0000:0001:ffff::1'))
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('[2001:db8::1]:443')).toBe('2001:db8:0:0::/64')
  })
})
