import type { Operation } from 'effection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../sessions/testing/redis-server'
import { DeviceStoreUnavailableError } from '../device-store'
import { openInScope } from '@/lib/testing/in-scope'
import { describeDeviceStoreContract } from '../testing/device-store-contract'
import { refusedAsOffline } from '@/lib/storage/testing/redis-offline'
import { useRedisDeviceStore } from './redis-store'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server?.stop())

let stores = 0
describeDeviceStoreContract('redis', { setup: () => useRedisDeviceStore({ url: server.url, prefix: `test-${++stores}:` }) })

describe('redis device store', () => {
  it('has a revocation made by one instance refused by another on the same Redis, heard over pub/sub, and by an instance started later', async () => {
    const prefix = 'two-instances:'
    const phone = 'P'.repeat(22)
    let heard: (member: string) => void = () => {}
    const heardByOther = new Promise<string>((resolve) => (heard = resolve))
    const one = await openInScope(() => useRedisDeviceStore({ url: server.url, prefix }))
    const other = await openInScope(() => useRedisDeviceStore({ url: server.url, prefix, onRevoked: (identity, browser) => heard(`${identity}.${browser}`) }))
    try {
      await one.run(() => one.value.addBrowser('alice', { id: phone, name: 'Safari on iPhone', joinedAt: 1 }, { maxBrowsers: 10 }))
      expect(other.value.revoked('alice', phone)).toBe(false)
      await one.run(() => one.value.revoke('alice', phone))
      // The revoking instance refuses it at once; the other as soon as the message arrives.
      expect(one.value.revoked('alice', phone)).toBe(true)
      expect(await heardByOther).toBe(`alice.${phone}`)
      expect(other.value.revoked('alice', phone)).toBe(true)
      expect(await other.run(() => other.value.browsers('alice'))).toEqual([])

      const later = await openInScope(() => useRedisDeviceStore({ url: server.url, prefix }))
      try {
        expect(later.value.revoked('alice', phone)).toBe(true)
        expect(later.value.revoked('alice', 'Q'.repeat(22))).toBe(false)
      } finally {
        await later.destroy()
      }
    } finally {
      await one.destroy()
      await other.destroy()
    }
  })

  it('fails at once with DeviceStoreUnavailableError while Redis is down, and loads the revocations again when it is back', async () => {
    const prefix = 'outage:'
    let learned: (member: string) => void = () => {}
    const opened = await openInScope(() => useRedisDeviceStore({ url: server.url, prefix, onRevoked: (identity, browser) => learned(`${identity}.${browser}`) }))
    try {
      await server.stop()
      const calls: Array<() => Operation<unknown>> = [() => opened.value.takeCode('x', Date.now()), () => opened.value.browsers('alice')]
      for (const call of calls) {
        const refusal = await opened.run(call).then(() => undefined, (error: unknown) => error)
        expect(refusal).toBeInstanceOf(DeviceStoreUnavailableError)
        // At once: refused as offline, not queued until the command's time-out.
        expect(refusal).toSatisfy(refusedAsOffline)
      }

      // Redis back (empty, as after a restart), and a revocation made there while this instance
      // was not subscribed: it is loaded when the subscription is back.
      await server.restart()
      const writer = await openInScope(() => useRedisDeviceStore({ url: server.url, prefix }))
      const reloaded = new Promise<string>((resolve) => (learned = resolve))
      try {
        await writer.run(() => writer.value.addBrowser('alice', { id: 'R'.repeat(22), name: 'x', joinedAt: 1 }, { maxBrowsers: 10 }))
        await writer.run(() => writer.value.revoke('alice', 'R'.repeat(22)))
      } finally {
        await writer.destroy()
      }
      expect(await reloaded).toBe(`alice.${'R'.repeat(22)}`)
      expect(opened.value.revoked('alice', 'R'.repeat(22))).toBe(true)
    } finally {
      await opened.destroy()
    }
  })

  it('says where Redis was when it cannot be reached at start', async () => {
    await expect(openInScope(() => useRedisDeviceStore({ url: 'redis://127.0.0.1:1' }))).rejects.toThrow(/Cannot connect to Redis at redis:\/\/127\.0\.0\.1:1.*REDIS_URL/)
  })
})
