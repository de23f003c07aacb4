import { describe, expect, it } from 'vitest'
import { createCallIdIssuer } from './call-ids'

describe('createCallIdIssuer', () => {
  it('issues ids that never repeat, keep the model’s id readable in front, and differ between issuers', () => {
    const issuer = createCallIdIssuer()
    const ids = Array.from({ length: 100 }, () => issuer.issue('call_0', 'client-a'))
    expect(new Set(ids).size).toBe(100)
    expect(ids[0]).toMatch(/^call_0_[A-Za-z0-9_-]{12}0_[0-9a-f]{20}$/)
    expect(createCallIdIssuer().issue('call_0', 'client-a')).not.toBe(ids[0])
    expect(issuer.issue('weird id/../', 'client-a')).toMatch(/^weirdid_/)
  })

  it('recognises an id only with the identity it was issued to, on every issuer with the same secret', () => {
    const secret = 'a'.repeat(32)
    const id = createCallIdIssuer({ secret }).issue('call_1', 'client-a')
    const otherInstance = createCallIdIssuer({ secret })
    expect(otherInstance.issuedTo(id, 'client-a')).toBe(true)
    expect(otherInstance.issuedTo(`direct.${id}`, 'client-a')).toBe(true)
    expect(otherInstance.issuedTo(id, 'client-b')).toBe(false)
    expect(createCallIdIssuer({ secret: 'b'.repeat(32) }).issuedTo(id, 'client-a')).toBe(false)
  })

  it('refuses forged and malformed ids without throwing', () => {
    const issuer = createCallIdIssuer()
    const id = issuer.issue('call_1', 'client-a')
    const flipped = id.slice(0, -1) + (id.endsWith('0') ? '1' : '0')
    for (const forged of [flipped, 'call_0', '', '_', 'x'.repeat(500), `${id}x`, id.replace(/_([0-9a-f]{20})$/, '-$1')]) {
      expect(issuer.issuedTo(forged, 'client-a')).toBe(false)
    }
  })
})
