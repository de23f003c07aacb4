import { afterEach, describe, expect, it } from 'vitest'
import { openInScope, type InScope } from '@/lib/testing/in-scope'
import { adminTokenCheck } from './admin-token'
import { createBudget } from './budget'
import type { BudgetStore } from './budget-store'
import { handleUsageRequest } from './handle-usage-request'
import { createMemoryBudgetStore } from './stores/memory-store'

let opened: InScope<BudgetStore> | undefined
afterEach(() => opened?.destroy())

const TOKEN = 'an-admin-token-of-some-length'
const get = (authorization?: string) => new Request('http://localhost/api/admin/usage', { headers: authorization ? { authorization } : {} })

async function usageApp(limitFor: (clientId: string) => number | undefined) {
  opened = await openInScope(function* () {
    return createMemoryBudgetStore()
  })
  const budget = createBudget({ store: opened.value, limitFor, now: () => Date.UTC(2026, 10, 29, 12) })
  await opened.run(() => budget.spend('alice', 1500))
  await opened.run(() => budget.spend('bob', 90))
  await opened.run(() => budget.spend('alice', 10))
  return { budget, isAdmin: adminTokenCheck(TOKEN), run: opened.run }
}

describe('GET /api/admin/usage', () => {
  it('gives an admin every account’s tokens of today with its limit, most used first', async () => {
    const app = await usageApp((clientId) => (clientId === 'alice' ? 1000 : undefined))
    const response = await handleUsageRequest({ app, request: get(`Bearer ${TOKEN}`) })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({
      day: '2026-11-29',
      resetsAt: '2026-11-30T00:00:00.000Z',
      accounts: [
        { clientId: 'alice', tokens: 1510, limit: 1000 },
        { clientId: 'bob', tokens: 90, limit: null },
      ],
    })
  })

  it.each([
    ['no Authorization', undefined],
    ['a wrong token', 'Bearer not-the-token'],
    ['the token without Bearer', TOKEN],
    ['a token that only starts like it', `Bearer ${TOKEN.slice(0, -1)}`],
  ])('refuses %s with a 401 admin_only that names what to send', async (_, authorization) => {
    const app = await usageApp(() => 1000)
    const response = await handleUsageRequest({ app, request: get(authorization) })
    expect(response.status).toBe(401)
    expect((await response.json()).error).toEqual({ code: 'admin_only', message: 'This is for admins: sign in as one, or send Authorization: Bearer <ADMIN_TOKEN>.' })
  })

  it('refuses everyone when no ADMIN_TOKEN is set', async () => {
    const app = { ...(await usageApp(() => 1000)), isAdmin: adminTokenCheck(undefined) }
    expect((await handleUsageRequest({ app, request: get('Bearer ') })).status).toBe(401)
    expect((await handleUsageRequest({ app, request: get('Bearer undefined') })).status).toBe(401)
  })
})
