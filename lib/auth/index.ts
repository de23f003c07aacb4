/**
 * Sign-in with an OpenID Provider (docs/sign-in.md): who may enter (the allow-list), the
 * sessions kept in the store (memory, embedded, Redis) and their checks, the routes' work
 * (`/auth/sign-in`, `/auth/callback`, `/auth/sign-out`), and the account as the app's identity.
 *
 * Direction: above the HTTP edge (whose identity seam, `ClientIdentityResolver`, the account
 * fills, and whose refusal it answers with) and the storage it keeps sessions in; below the
 * composition root, which wires it to the chats and the routes. The chat engine, the chats and
 * the MCP host never see it: they key on `clientId`, which with sign-in is the account's id.
 */
export { accountIdOf, guestOf, isAccountId, type Account } from './account'
export { createAccountIdentity } from './account-identity'
export { AuthStoreUnavailableError, isAuthStoreUnavailable, type AuthSession, type AuthStore, type SignInFlow } from './auth-store'
export { createIdentityProvider, isProviderError, ProviderError, type IdentityProvider, type ProviderClaims } from './identity-provider'
export { installSignIn, pageGate, type PageGate } from './page-gate'
export { safeNextPath } from './safe-next'
export { AUTH_PAGES, CALLBACK_PATH, SIGN_IN_PATH, createSignIn, type SignIn, type SignInPolicy, type SignInProblem } from './sign-in'
export { KEEP_CONNECTIONS_FIELD } from './sign-out-form'
export { createMemoryAuthStore } from './stores/memory-store'
export { useEmbeddedAuthStore } from './stores/embedded-store'
export { useRedisAuthStore } from './stores/redis-store'
