import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openInScope } from '@/lib/testing/in-scope'
import { describeDeviceStoreContract } from '../testing/device-store-contract'
import { useEmbeddedDeviceStore } from './embedded-store'

const root = mkdtempSync(join(tmpdir(), 'devices-embedded-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

describeDeviceStoreContract('embedded', { setup: () => useEmbeddedDeviceStore({ directory: newDirectory() }) })

describe('embedded device store', () => {
  it('shares one DATA_DIR between two openings (two processes of one machine): a revoke by one holds at once in the other, and across a restart', async () => {
    const directory = newDirectory()
    const one = await openInScope(() => useEmbeddedDeviceStore({ directory }))
    const other = await openInScope(() => useEmbeddedDeviceStore({ directory }))
    try {
      const phone = 'P'.repeat(22)
      await one.run(() => one.value.addBrowser('alice', { id: phone, name: 'Safari on iPhone', joinedAt: 1 }, { maxBrowsers: 10 }))
      expect(other.value.revoked('alice', phone)).toBe(false)
      await other.run(() => other.value.revoke('alice', phone))
      expect(one.value.revoked('alice', phone)).toBe(true)
    } finally {
      await one.destroy()
      await other.destroy()
    }
    const reopened = await openInScope(() => useEmbeddedDeviceStore({ directory }))
    try {
      expect(reopened.value.revoked('alice', 'P'.repeat(22))).toBe(true)
    } finally {
      await reopened.destroy()
    }
  })

  it('says where it could not keep the devices', async () => {
    const notADirectory = join(root, 'a-file')
    writeFileSync(notADirectory, '')
    await expect(openInScope(() => useEmbeddedDeviceStore({ directory: notADirectory }))).rejects.toThrow(/devices cannot be kept in .*DATA_DIR/)
  })
})
