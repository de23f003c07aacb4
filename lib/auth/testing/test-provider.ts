import { afterAll, beforeAll } from 'vitest'
import { startTestOidcProvider, type TestOidcProvider } from '@/lib/testing/oidc-provider'

/** The app the sign-in tests sign in to: its address (the provider sends people back to its `/auth/callback`) and its secret. */
export const TEST_APP = 'http://127.0.0.1:3999'
export const TEST_SECRET = 'a-secret-for-the-sign-in-tests-only-0123456789'

/**
 * The test OpenID Provider for a test file: started before its tests (`beforeAll`), with the
 * test app's callback registered, and stopped after them. Returns how to reach it once started.
 */
export function useTestOidcProvider(): () => TestOidcProvider {
  let provider: TestOidcProvider | undefined
  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [`${TEST_APP}/auth/callback`] })
  })
  afterAll(() => provider?.stop())
  return () => {
    if (!provider) throw new Error('The test OpenID Provider is reached only from a test, once it has started.')
    return provider
  }
}
