import { describe, expect, it } from 'vitest'
import { accountIdOf } from '../auth'
import { createClientIdentity } from '../http'
import { limitsOf, readBudgetConfig } from './budget-instance'

describe('the model budgets’ configuration', () => {
  it('is no budget and no admin when nothing is set (empty counts as unset)', () => {
    expect(readBudgetConfig({})).toEqual({ tokensPerDay: undefined, guestTokensPerDay: undefined, adminToken: undefined })
    expect(readBudgetConfig({ MODEL_BUDGET_TOKENS_PER_DAY: ' ', ADMIN_TOKEN: '' })).toEqual({ tokensPerDay: undefined, guestTokensPerDay: undefined, adminToken: undefined })
  })

  it('reads the daily limits and the admin token, and gives every identity the daily limit', () => {
    const config = readBudgetConfig({ MODEL_BUDGET_TOKENS_PER_DAY: '200000', GUEST_MODEL_BUDGET_TOKENS_PER_DAY: '20000', ADMIN_TOKEN: 'secret-of-the-admin' })
    expect(config).toEqual({ tokensPerDay: 200_000, guestTokensPerDay: 20_000, adminToken: 'secret-of-the-admin' })
    expect(limitsOf(config)('any-client-id')).toBe(200_000)
  })

  it('gives a guest the guest limit when sign-in lets guests in, and a signed-in account the accounts’ limit', () => {
    const account = accountIdOf('https://id.example.com', 'alice')
    const guest = createClientIdentity({ secret: 's'.repeat(32) }).resolve(new Request('http://localhost/')).clientId
    const config = readBudgetConfig({ MODEL_BUDGET_TOKENS_PER_DAY: '200000', GUEST_MODEL_BUDGET_TOKENS_PER_DAY: '20000' })
    expect(limitsOf(config, { guests: true })(account)).toBe(200_000)
    expect(limitsOf(config, { guests: true })(guest)).toBe(20_000)
    // Without guests, a browser identity is the person (no sign-in): the accounts' limit.
    expect(limitsOf(config, { guests: false })(guest)).toBe(200_000)
    // The guests' limit unset: the accounts' limit, never none.
    expect(limitsOf(readBudgetConfig({ MODEL_BUDGET_TOKENS_PER_DAY: '200000' }), { guests: true })(guest)).toBe(200_000)
  })

  it.each(['0', '-5', '1.5', 'lots'])('refuses MODEL_BUDGET_TOKENS_PER_DAY=%s, naming the variable', (text) => {
    expect(() => readBudgetConfig({ MODEL_BUDGET_TOKENS_PER_DAY: text })).toThrow(`MODEL_BUDGET_TOKENS_PER_DAY must be a positive whole number of tokens (unset: no budget); got "${text}".`)
  })
})
