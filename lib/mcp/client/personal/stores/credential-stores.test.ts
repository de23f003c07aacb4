import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Operation } from 'effection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../../../../sessions/testing/redis-server'
import { openInScope } from '../../../../testing/in-scope'
import { CredentialStoreUnavailableError, type CredentialStore } from '../credential-store'
import { sealCredentials } from '../sealed-credentials'
import { useEmbeddedCredentialStore } from './embedded-store'
import { createMemoryCredentialStore } from './memory-store'
import { useRedisCredentialStore } from './redis-store'

const root = mkdtempSync(join(tmpdir(), 'mcp-credential-stores-'))
let redis: RedisServer
let prefixes = 0
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.stop()
  rmSync(root, { recursive: true, force: true })
})

const kinds: Array<[string, () => Operation<CredentialStore>]> = [
  [
    'memory',
    function* () {
      return createMemoryCredentialStore()
    },
  ],
  ['embedded', () => useEmbeddedCredentialStore({ directory: join(root, `store-${++prefixes}`) })],
  ['redis', () => useRedisCredentialStore({ url: redis.url, prefix: `test-${++prefixes}:` })],
]

describe.each(kinds)('the %s credential store', (_kind, make) => {
  it('keeps, reads, takes once, forgets, and lets an expired value go', async () => {
    const opened = await openInScope(make)
    const { value: store, run } = opened
    try {
      const now = Date.now()
      await run(() => store.put('a', 'sealed-a'))
      await run(() => store.put('b', 'sealed-b', now + 60_000))
      await run(() => store.put('gone', 'sealed-old', now + 10_000))
      expect(await run(() => store.get('a', now))).toBe('sealed-a')
      expect(await run(() => store.get('gone', now))).toBe('sealed-old')
      expect(await run(() => store.get('gone', now + 10_000))).toBeUndefined()
      const [one, two] = await Promise.all([run(() => store.take('b', now)), run(() => store.take('b', now))])
      expect([one, two].sort()).toEqual(['sealed-b', undefined])
      await run(() => store.delete('a'))
      expect(await run(() => store.get('a', now))).toBeUndefined()
    } finally {
      await opened.destroy()
    }
  })

  it('holds only sealed values: another secret, or a value moved to another key, opens to nothing', async () => {
    const opened = await openInScope(make)
    const { value: store, run } = opened
    try {
      const sealed = sealCredentials({ store, secret: 'one secret of at least thirty-two chars' })
      const tokens = { tokens: { access_token: 'the-access-token', token_type: 'Bearer' }, savedAt: 1 }
      await run(() => sealed.put('tokens', 'remote:alice', tokens))
      expect(await run(() => sealed.get('tokens', 'remote:alice'))).toEqual(tokens)
      const raw = await run(() => store.get('tokens:remote:alice', Date.now()))
      expect(raw).toMatch(/^v1\./)
      expect(raw).not.toContain('the-access-token')
      await run(() => store.put('tokens:remote:bob', raw!))
      expect(await run(() => sealed.get('tokens', 'remote:bob'))).toBeUndefined()
      const other = sealCredentials({ store, secret: 'another secret of at least thirty-two' })
      expect(await run(() => other.get('tokens', 'remote:alice'))).toBeUndefined()
    } finally {
      await opened.destroy()
    }
  })
})

describe('the redis credential store', () => {
  it('fails with CredentialStoreUnavailableError while Redis is down', async () => {
    const opened = await openInScope(() => useRedisCredentialStore({ url: redis.url, prefix: 'outage:' }))
    try {
      await redis.stop()
      await expect(opened.run(() => opened.value.get('a', Date.now()))).rejects.toBeInstanceOf(CredentialStoreUnavailableError)
    } finally {
      await redis.restart()
      await opened.destroy()
    }
  })
})
