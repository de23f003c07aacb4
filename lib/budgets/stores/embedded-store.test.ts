import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openInScope } from '@/lib/testing/in-scope'
import { describeBudgetStoreContract } from '../testing/budget-store-contract'
import { useEmbeddedBudgetStore } from './embedded-store'

const root = mkdtempSync(join(tmpdir(), 'budgets-embedded-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let directories = 0
const newDirectory = () => join(root, `store-${++directories}`)

describeBudgetStoreContract('embedded', { setup: () => useEmbeddedBudgetStore({ directory: newDirectory() }) })

describe('embedded budget store', () => {
  it('shares one DATA_DIR between two openings (two processes of one machine), and keeps the count across a restart', async () => {
    const directory = newDirectory()
    const one = await openInScope(() => useEmbeddedBudgetStore({ directory }))
    const other = await openInScope(() => useEmbeddedBudgetStore({ directory }))
    try {
      await one.run(() => one.value.add('alice', '2026-11-29', 100))
      await other.run(() => other.value.add('alice', '2026-11-29', 50))
      expect(await one.run(() => one.value.used('alice', '2026-11-29'))).toBe(150)
    } finally {
      await one.destroy()
      await other.destroy()
    }
    const reopened = await openInScope(() => useEmbeddedBudgetStore({ directory }))
    try {
      expect(await reopened.run(() => reopened.value.used('alice', '2026-11-29'))).toBe(150)
    } finally {
      await reopened.destroy()
    }
  })

  it('forgets the days before yesterday once a new day is counted', async () => {
    const opened = await openInScope(() => useEmbeddedBudgetStore({ directory: newDirectory() }))
    try {
      await opened.run(() => opened.value.add('alice', '2026-11-27', 5))
      await opened.run(() => opened.value.add('alice', '2026-11-28', 6))
      await opened.run(() => opened.value.add('alice', '2026-11-29', 7))
      expect(await opened.run(() => opened.value.usage('2026-11-27'))).toEqual([])
      expect(await opened.run(() => opened.value.usage('2026-11-28'))).toEqual([{ clientId: 'alice', tokens: 6 }])
    } finally {
      await opened.destroy()
    }
  })

  it('says where it could not keep the counters', async () => {
    const notADirectory = join(root, 'a-file')
    writeFileSync(notADirectory, '')
    await expect(openInScope(() => useEmbeddedBudgetStore({ directory: notADirectory }))).rejects.toThrow(/model budgets cannot be kept in .*DATA_DIR/)
  })
})
