import { describe, expect, it } from 'vitest'
import { createAdmission, groupOf, type AdmissionOptions, type Work } from './admission'

function server(options: Partial<AdmissionOptions> = {}) {
  let time = 1_000_000
  const admission = createAdmission({ burst: 1_000, perSecond: 1_000, globalBurst: 100, globalPerSecond: 10, now: () => time, ...options })
  return {
    admission,
    advance: (seconds: number) => (time += seconds * 1000),
    /** How many of `count` requests from `address` right now are admitted. */
    admitted: (address: string, count: number, work: Work = 'new') =>
      Array.from({ length: count }, () => admission.admit(address, work)).filter((decision) => decision.allowed).length,
  }
}

/** What a client honouring Retry-After waits: whole seconds, as the header says them. */
const retryAfter = (decision: ReturnType<ReturnType<typeof createAdmission>['admit']>) => {
  if (decision.allowed) throw new Error('Expected a refusal')
  return Math.max(1, Math.ceil(decision.retryAfterSeconds))
}

describe('createAdmission', () => {
  it('serves heavy clients down to the reserve, then refuses them while a client that sent little gets in on its first try', () => {
    const { admission, admitted } = server()
    let served = 0
    for (let round = 0; round < 40; round++) for (let index = 0; index < 5; index++) served += admitted(`10.0.${index}.1`, 1)
    expect(served).toBe(75)
    expect(admission.admit('10.0.0.1', 'new')).toMatchObject({ allowed: false, scope: 'server' })
    expect(admission.admit('192.0.2.7', 'new')).toEqual({ allowed: true })
  })

  it('never refuses work in progress for the server’s load, and new work waits behind it', () => {
    const { admission, admitted, advance } = server()
    let served = 0
    for (let index = 0; index < 100; index++) served += admitted(`10.${index}.0.1`, 1)
    expect(served).toBe(100)
    expect(admitted('10.0.1.1', 150, 'continue')).toBe(150)
    // The continuations were paid for: new work waits until the bucket is out of debt.
    advance(5)
    expect(admission.admit('192.0.2.7', 'new')).toMatchObject({ allowed: false, scope: 'server' })
  })

  it('gives a light client refused on a spent server a slot: a retry after Retry-After is admitted, whatever came meanwhile', () => {
    const { admission, admitted, advance } = server()
    for (let index = 0; index < 100; index++) admitted(`10.1.${index}.1`, 1)
    const refused = admission.admit('192.0.2.7', 'new')
    expect(refused).toMatchObject({ allowed: false, scope: 'server' })
    advance(retryAfter(refused))
    // Others arriving at the same moment take what the bucket has; the slot was set aside.
    for (let index = 0; index < 30; index++) admitted(`10.2.${index}.1`, 1)
    expect(admission.admit('192.0.2.7', 'new')).toEqual({ allowed: true })
  })

  it('tells each of many newcomers the truth: every one retrying at its Retry-After is admitted on its second try', () => {
    const { admission, advance } = server()
    for (let index = 0; index < 100; index++) admission.admit(`10.1.${index}.1`, 'new')
    const due = new Map<string, number>()
    for (let index = 0; index < 50; index++) due.set(`192.0.${index}.9`, retryAfter(admission.admit(`192.0.${index}.9`, 'new')))
    const results: boolean[] = []
    for (let second = 1; second <= 10; second++) {
      advance(1)
      // A flood of heavy requests keeps coming meanwhile.
      for (let index = 0; index < 20; index++) admission.admit('10.9.9.9', 'new')
      for (const [address, wait] of due) if (wait === second) results.push(admission.admit(address, 'new').allowed)
    }
    expect(results).toHaveLength(50)
    expect(results.every(Boolean)).toBe(true)
  })

  it('refuses a client that keeps asking before its slot with the same time, and does not give it a second slot', () => {
    const { admission, advance } = server()
    for (let index = 0; index < 100; index++) admission.admit(`10.1.${index}.1`, 'new')
    for (let index = 0; index < 20; index++) admission.admit(`192.0.${index}.9`, 'new')
    const first = admission.admit('198.51.100.1', 'new')
    advance(0.5)
    const again = admission.admit('198.51.100.1', 'new')
    expect(again.allowed).toBe(false)
    expect(!first.allowed && !again.allowed && again.retryAfterSeconds).toBeCloseTo(!first.allowed ? first.retryAfterSeconds - 0.5 : 0, 5)
  })

  it('shares the reserve among groups of addresses: one /24 cannot take it all', () => {
    const { admission, admitted } = server()
    for (let round = 0; round < 20; round++) admitted('10.0.0.1', 5)
    const fromOneBlock = Array.from({ length: 30 }, (_, index) => admitted(`203.0.113.${index}`, 1)).reduce((sum, count) => sum + count, 0)
    expect(fromOneBlock).toBe(16)
    expect(admission.admit('198.51.100.1', 'new')).toEqual({ allowed: true })
  })

  it('holds slots for new clients behind the same /24 as a flood, a few at a time, while the flood stays refused', () => {
    const { admission, admitted, advance } = server()
    // Ten addresses of one /24 keep sending: the budget is spent, and they are over their share.
    for (let round = 0; round < 30; round++) for (let host = 1; host <= 10; host++) admitted(`203.0.113.${host}`, 1)
    // Ten newcomers of that /24, each retrying at its Retry-After: they get in, four at a time.
    const waiting = new Map(Array.from({ length: 10 }, (_, index) => [`203.0.113.${100 + index}`, 0]))
    const admittedPerRound: number[] = []
    for (let round = 0; round < 4 && waiting.size > 0; round++) {
      let wait = 0
      let admittedNow = 0
      for (const address of waiting.keys()) {
        const decision = admission.admit(address, 'new')
        if (decision.allowed) waiting.delete(address), admittedNow++
        else wait = Math.max(wait, retryAfter(decision))
      }
      admittedPerRound.push(admittedNow)
      advance(wait)
      // The flood goes on meanwhile, faster than the bucket refills, and takes what refilled above the reserve first.
      for (let host = 1; host <= 10; host++) admitted(`203.0.113.${host}`, 2 * wait + 1)
    }
    expect(admittedPerRound).toEqual([0, 4, 4, 2])
    expect(admitted('203.0.113.1', 5)).toBe(0)
  })

  it('returns a slot nobody came back for to the bucket once its grace has passed', () => {
    const { admission, admitted, advance } = server({ globalPerSecond: 1 })
    for (let index = 0; index < 100; index++) admitted(`10.1.${index}.1`, 1)
    for (let index = 0; index < 5; index++) admission.admit(`192.0.${index}.9`, 'new')
    // Five tokens were set aside and never claimed: after their grace they are back, so the
    // bucket holds the 25 that 30 s refilled after the debt of 5, and those 5 again.
    advance(30)
    let served = 0
    for (let index = 0; index < 40; index++) served += admitted(`10.4.${index}.1`, 1)
    expect(served).toBe(30)
  })

  it('charges every request to its own address first, work in progress included', () => {
    const admission = createAdmission({ burst: 3, perSecond: 1, globalBurst: 100, globalPerSecond: 10, now: () => 0 })
    expect([1, 2, 3, 4].map(() => admission.enter('10.0.0.1').allowed)).toEqual([true, true, true, false])
    expect(admission.enter('10.0.0.1')).toMatchObject({ allowed: false, scope: 'address', retryAfterSeconds: 1 })
    expect(admission.take('10.0.0.2')).toEqual({ allowed: true })
  })

  it('says, without charging anything, whose new work would be refused now: heavy addresses once the server is down to its reserve', () => {
    const { admission, admitted } = server()
    expect(admission.pressing('10.0.0.1')).toBe(false)
    let served = 0
    for (let round = 0; round < 40; round++) for (let index = 0; index < 5; index++) served += admitted(`10.0.${index}.1`, 1)
    expect(served).toBe(75)
    expect(admission.pressing('10.0.0.1')).toBe(true)
    expect(admission.pressing('192.0.2.7')).toBe(false)
    expect(admission.pressing('192.0.2.7')).toBe(false)
    expect(admission.admit('192.0.2.7', 'new')).toEqual({ allowed: true })
  })

  it('remembers at most maxAddresses', () => {
    const { admission } = server({ maxAddresses: 10 })
    for (let index = 0; index < 50; index++) admission.take(`10.0.0.${index}`)
    expect(admission.size).toBeLessThanOrEqual(10)
  })

  it('refuses options that are not positive numbers', () => {
    expect(() => createAdmission({ burst: 1, perSecond: 1, globalBurst: 0, globalPerSecond: 1 })).toThrow(/globalBurst must be a positive number/)
  })
})

describe('groupOf', () => {
  it('groups IPv4 by /24 and IPv6 by /48', () => {
    expect(groupOf('203.0.113.77')).toBe('203.0.113.0/24')
    expect(groupOf('2001:db8:1:2::/64')).toBe('2001:db8:1::/48')
    expect(groupOf('unknown')).toBe('unknown')
  })
})
