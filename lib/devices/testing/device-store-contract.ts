import type { Operation } from 'effection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EXPIRED_CODE_KEPT_MS, FIRST_BROWSER, type DeviceStore } from '../device-store'
import { openInScope, type InScope } from '@/lib/testing/in-scope'

export interface DeviceStoreContractOptions {
  /** Starts a fresh, empty store; it lives until the test ends. */
  setup(): Operation<DeviceStore>
}

const TEN_MINUTES = 10 * 60 * 1000

/** The cases every `DeviceStore` must pass, with a clock the test sets. Each case gets a fresh store. */
export function describeDeviceStoreContract(name: string, { setup }: DeviceStoreContractOptions): void {
  describe(`${name} device store (contract)`, () => {
    let opened: InScope<DeviceStore>
    let store: DeviceStore
    const run = <T>(operation: () => Operation<T>) => opened.run(operation)
    // Near the real time: Redis expires what it keeps relative to its own clock.
    const now = Date.now()
    const limits = { maxBrowsers: 3 }

    beforeEach(async () => {
      opened = await openInScope(setup)
      store = opened.value
    })
    afterEach(() => opened.destroy())

    it('takes a code once: the first take finds its identity, the second nothing', async () => {
      expect(await run(() => store.addCode({ hash: 'h1', identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 3 }))).toBe(true)
      const takes = await Promise.all([run(() => store.takeCode('h1', now + 1)), run(() => store.takeCode('h1', now + 1))])
      expect(takes.filter((taken) => taken !== undefined)).toEqual([{ identity: 'alice', expired: false }])
      expect(await run(() => store.takeCode('h1', now + 2))).toBeUndefined()
      expect(await run(() => store.takeCode('never-made', now))).toBeUndefined()
    })

    it('says a code is expired once past its time (taking it), and forgets it an hour later', async () => {
      await run(() => store.addCode({ hash: 'late', identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 3 }))
      expect(await run(() => store.takeCode('late', now + TEN_MINUTES))).toEqual({ identity: 'alice', expired: true })
      expect(await run(() => store.takeCode('late', now + TEN_MINUTES))).toBeUndefined()
      await run(() => store.addCode({ hash: 'forgotten', identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 3 }))
      expect(await run(() => store.takeCode('forgotten', now + TEN_MINUTES + EXPIRED_CODE_KEPT_MS))).toBeUndefined()
    })

    it('keeps at most maxLive live codes per identity; expired ones do not count; other identities are apart', async () => {
      for (const hash of ['a', 'b']) {
        expect(await run(() => store.addCode({ hash, identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 2 }))).toBe(true)
      }
      expect(await run(() => store.addCode({ hash: 'c', identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 2 }))).toBe(false)
      expect(await run(() => store.takeCode('c', now))).toBeUndefined()
      expect(await run(() => store.addCode({ hash: 'm', identity: 'mallory', expiresAt: now + TEN_MINUTES }, { now, maxLive: 2 }))).toBe(true)
      // Taking one frees its place.
      await run(() => store.takeCode('a', now))
      expect(await run(() => store.addCode({ hash: 'd', identity: 'alice', expiresAt: now + TEN_MINUTES }, { now, maxLive: 2 }))).toBe(true)
      // Past their time, the live ones no longer count.
      const later = now + TEN_MINUTES
      expect(await run(() => store.addCode({ hash: 'e', identity: 'alice', expiresAt: later + TEN_MINUTES }, { now: later, maxLive: 2 }))).toBe(true)
    })

    it('lists an identity’s browsers in the order they joined, renames one added again, and keeps at most maxBrowsers', async () => {
      expect(await run(() => store.addBrowser('alice', { id: FIRST_BROWSER, name: 'Firefox on Linux', joinedAt: now }, limits))).toBe(true)
      expect(await run(() => store.addBrowser('alice', { id: 'B'.repeat(22), name: 'Safari on iPhone', joinedAt: now + 2 }, limits))).toBe(true)
      expect(await run(() => store.addBrowser('alice', { id: 'C'.repeat(22), name: 'Chrome on Android', joinedAt: now + 1 }, limits))).toBe(true)
      expect(await run(() => store.addBrowser('alice', { id: 'D'.repeat(22), name: 'Edge on Windows', joinedAt: now + 3 }, limits))).toBe(false)
      expect(await run(() => store.addBrowser('alice', { id: FIRST_BROWSER, name: 'Firefox on macOS', joinedAt: now + 9 }, limits))).toBe(true)
      expect(await run(() => store.browsers('alice'))).toEqual([
        { id: FIRST_BROWSER, name: 'Firefox on macOS', joinedAt: now },
        { id: 'C'.repeat(22), name: 'Chrome on Android', joinedAt: now + 1 },
        { id: 'B'.repeat(22), name: 'Safari on iPhone', joinedAt: now + 2 },
      ])
      expect(await run(() => store.browsers('mallory'))).toEqual([])
    })

    it('revokes a browser: gone from the list, revoked() says so, a second revoke finds nothing, other identities untouched', async () => {
      const phone = 'P'.repeat(22)
      await run(() => store.addBrowser('alice', { id: phone, name: 'Safari on iPhone', joinedAt: now }, limits))
      await run(() => store.addBrowser('bob', { id: phone, name: 'Safari on iPhone', joinedAt: now }, limits))
      expect(store.revoked('alice', phone)).toBe(false)
      expect(await run(() => store.revoke('alice', phone))).toBe(true)
      expect(store.revoked('alice', phone)).toBe(true)
      expect(store.revoked('bob', phone)).toBe(false)
      expect(await run(() => store.browsers('alice'))).toEqual([])
      expect(await run(() => store.revoke('alice', phone))).toBe(false)
      expect(await run(() => store.revoke('mallory', phone))).toBe(false)
    })
  })
}
