import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openInScope } from '@/lib/testing/in-scope'
import { describeAuthStoreContract } from '../testing/auth-store-contract'
import { useEmbeddedAuthStore } from './embedded-store'

const root = mkdtempSync(join(tmpdir(), 'auth-embedded-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

describeAuthStoreContract('embedded', { setup: () => useEmbeddedAuthStore({ directory: newDirectory() }) })

describe('embedded auth store', () => {
  it('shares one DATA_DIR between two openings (two processes of one machine): a sign-out on one holds at once on the other', async () => {
    const directory = newDirectory()
    const one = await openInScope(() => useEmbeddedAuthStore({ directory }))
    const other = await openInScope(() => useEmbeddedAuthStore({ directory }))
    try {
      const now = Date.now()
      const account = { id: 'A'.repeat(43), email: 'a@example.com', emailVerified: true, name: 'A', groups: [], isAdmin: false, isGuest: false }
      await one.run(() => one.value.putSession({ id: 's', account, subject: 'a', createdAt: now, checkedAt: now, expiresAt: now + 60_000 }))
      expect((await other.run(() => other.value.getSession('s', now)))?.account.email).toBe('a@example.com')
      await one.run(() => one.value.endSession('s'))
      expect(await other.run(() => other.value.getSession('s', now))).toBeUndefined()
    } finally {
      await one.destroy()
      await other.destroy()
    }
  })
})
