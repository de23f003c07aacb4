import { describe, expect, it, vi } from 'vitest'
import { SessionStoreUnavailableError } from '../sessions/session-store'
import { ChatRequestError, toChatFailure } from './errors'

describe('toChatFailure', () => {
  it('says a store that cannot be reached is a 503 store_unavailable, without the store’s address (the operator’s log has it)', () => {
    const failure = toChatFailure(new SessionStoreUnavailableError('The session store (redis://db:6379) is unavailable: connection refused'))
    expect(failure).toMatchObject({ status: 503, code: 'store_unavailable', message: 'Sessions cannot be reached right now. Try again in a moment.' })
  })

  it('knows the errors another copy of the modules made: the routes run in another bundle than the chat server', async () => {
    vi.resetModules()
    const other = await import('../sessions/session-store')
    expect(other.SessionStoreUnavailableError).not.toBe(SessionStoreUnavailableError)
    expect(toChatFailure(new other.SessionStoreUnavailableError('down'))).toMatchObject({ status: 503, code: 'store_unavailable' })
    const otherErrors = await import('./errors')
    const refusal = new otherErrors.ChatRequestError('invalid_json', 'The body is not JSON.')
    expect(toChatFailure(refusal)).toBe(refusal)
  })

  it('passes a refusal on as it is, and leaves anything else to be a 500', () => {
    const refusal = new ChatRequestError('rate_limited', 'Too many requests.', undefined, 2, 'address')
    expect(toChatFailure(refusal)).toBe(refusal)
    expect(toChatFailure(new Error('a bug'))).toBeUndefined()
    expect(toChatFailure('a string')).toBeUndefined()
  })
})
