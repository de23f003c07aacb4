import { describe, expect, it } from 'vitest'
import { SessionCaps, type SessionHolder, type SessionSlot } from './session-caps'

const address = (id: string): SessionHolder => ({ kind: 'address', id })
const token = (id: string): SessionHolder => ({ kind: 'token', id })

function slot(caps: SessionCaps, holders: SessionHolder[]): SessionSlot {
  const reservation = caps.reserve(holders)
  if (!reservation.ok) throw new Error(`refused: ${reservation.full}`)
  return reservation.slot
}

describe('SessionCaps', () => {
  it('refuses a holder over its own cap, naming it and what it holds, and leaves room for others', () => {
    const caps = new SessionCaps({ perHolder: 2, total: 10 })
    slot(caps, [address('a')]).open('a1')
    slot(caps, [address('a')])
    expect(caps.reserve([address('a')])).toEqual({ ok: false, full: 'holder', holder: address('a'), held: 2 })
    expect(caps.reserve([address('b')]).ok).toBe(true)
    expect(caps.held).toBe(3)
  })

  it('counts a slot being opened, so requests at the same moment cannot pass the cap together', () => {
    const caps = new SessionCaps({ perHolder: 3, total: 10 })
    const reservations = Array.from({ length: 10 }, () => caps.reserve([address('a')]))
    expect(reservations.filter((reservation) => reservation.ok)).toHaveLength(3)
  })

  it('refuses when the server is full, after the holder caps', () => {
    const caps = new SessionCaps({ perHolder: 2, total: 3 })
    slot(caps, [address('a')]).open('a1')
    slot(caps, [address('a')]).open('a2')
    slot(caps, [address('b')]).open('b1')
    expect(caps.reserve([address('a')])).toMatchObject({ ok: false, full: 'holder' })
    expect(caps.reserve([address('c')])).toEqual({ ok: false, full: 'server', held: 3 })
  })

  it('counts a session against every holder it was opened by (address and token)', () => {
    const caps = new SessionCaps({ perHolder: 2, total: 10 })
    slot(caps, [address('a'), token('t')]).open('s1')
    slot(caps, [address('b'), token('t')]).open('s2')
    expect(caps.reserve([address('c'), token('t')])).toEqual({ ok: false, full: 'holder', holder: token('t'), held: 2 })
    expect(caps.reserve([address('c')]).ok).toBe(true)
    expect([...caps.sessionsOf(token('t'))]).toEqual(['s1', 's2'])
  })

  it('gives a place back when a slot is released or its session forgotten, once each, and forgets empty holders', () => {
    const caps = new SessionCaps({ perHolder: 1, total: 10 })
    const released = slot(caps, [address('a')])
    released.release()
    released.release()
    released.open('late')
    expect(caps.held).toBe(0)
    const opened = slot(caps, [address('a')])
    opened.open('a1')
    opened.release()
    expect(caps.heldBy(address('a'))).toBe(1)
    caps.forget('a1')
    caps.forget('a1')
    caps.forget('never-opened')
    expect(caps.heldBy(address('a'))).toBe(0)
    expect(caps.held).toBe(0)
    expect([...caps.sessionsOf(address('a'))]).toEqual([])
    expect(caps.reserve([address('a')]).ok).toBe(true)
  })
})
