import type { Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { openInScope } from '@/lib/testing/in-scope'
import type { AuthSession, AuthStore } from '../auth-store'

const account = { id: 'A'.repeat(43), email: 'alice@example.com', emailVerified: true, name: 'Alice', groups: ['eng'], isAdmin: false, isGuest: false }

/** What every `AuthStore` does (memory, embedded, Redis), each opened by `setup` in a scope of its own. */
export function describeAuthStoreContract(name: string, { setup }: { setup(): Operation<AuthStore> }) {
  describe(`${name} auth store`, () => {
    async function withStore(body: (store: AuthStore, run: <T>(operation: () => Operation<T>) => Promise<T>) => Promise<void>) {
      const opened = await openInScope(setup)
      try {
        await body(opened.value, opened.run)
      } finally {
        await opened.destroy()
      }
    }

    it('gives a sign-in under way to exactly one taker, and none once expired', async () => {
      await withStore(async (store, run) => {
        const now = Date.now()
        await run(() => store.putFlow({ state: 's1', nonce: 'n', codeVerifier: 'v', next: '/c/x', expiresAt: now + 60_000 }))
        const [one, two] = await Promise.all([run(() => store.takeFlow('s1', now)), run(() => store.takeFlow('s1', now))])
        expect([one?.next, two?.next].sort()).toEqual(['/c/x', undefined])
        await run(() => store.putFlow({ state: 's2', nonce: 'n', codeVerifier: 'v', next: '/', expiresAt: now + 60_000 }))
        expect(await run(() => store.takeFlow('s2', now + 60_000))).toBeUndefined()
      })
    })

    it('keeps a session until it ends or expires, and lets one of two claim its check', async () => {
      await withStore(async (store, run) => {
        const now = Date.now()
        const session: AuthSession = { id: 'session-1', account, subject: 'alice', refreshToken: 'r', createdAt: now, checkedAt: now, expiresAt: now + 3_600_000 }
        await run(() => store.putSession(session))
        expect(await run(() => store.getSession('session-1', now))).toEqual(session)
        const claims = await Promise.all([run(() => store.claimCheck('session-1', now, now + 61_000)), run(() => store.claimCheck('session-1', now, now + 61_000))])
        expect(claims.sort()).toEqual([false, true])
        expect((await run(() => store.getSession('session-1', now + 61_000)))?.checkedAt).toBe(now + 61_000)
        expect(await run(() => store.getSession('session-1', now + 3_600_000))).toBeUndefined()
        await run(() => store.endSession('session-1'))
        expect(await run(() => store.getSession('session-1', now))).toBeUndefined()
        expect(await run(() => store.claimCheck('session-1', now + 61_000, now + 122_000))).toBe(false)
      })
    })
  })
}
