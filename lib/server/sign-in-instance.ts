import type { Operation } from 'effection'
import { createIdentityProvider, createMemoryAuthStore, createSignIn, useEmbeddedAuthStore, useRedisAuthStore, type AuthStore, type SignIn } from '../auth'
import { readAuthConfig, type AuthConfig } from './auth-config'
import { getBrowserIdentity } from './browser-identity-instance'
import { readServerConfig } from './config'
import { useChosenStore } from './chosen-store'
import { openForProcess } from './open-for-process'

/** Sign-in as configured, with its redirect URI; undefined when the environment configures none. */
export type SignInInstance = { signIn: SignIn; config: AuthConfig } | undefined

const globalForSignIn = globalThis as typeof globalThis & { signIn?: Promise<SignInInstance> }

/** How long a session lasts at most: a week, then the person signs in again. */
const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
/** How old a session's last check may be before the provider is asked again. */
const RECHECK_AFTER_MS = 60_000

/**
 * The app's sign-in, when `AUTH_OIDC_*` configure one (`auth-config.ts`): its sessions where the
 * other data is (Redis, else `DATA_DIR/auth.db`; `SESSION_STORE=memory`: in memory), opened for
 * the life of the process. Kept on globalThis, like the chat app, so that dev-mode reloads do
 * not open the store twice.
 */
export function getSignIn(): Promise<SignInInstance> {
  globalForSignIn.signIn ??= open()
  return globalForSignIn.signIn
}

async function open(): Promise<SignInInstance> {
  const config = readAuthConfig(process.env)
  if (!config) return undefined
  const server = readServerConfig()
  const useStore = (): Operation<AuthStore> =>
    useChosenStore(server, { redis: (url) => useRedisAuthStore({ url }), memory: createMemoryAuthStore, embedded: (directory) => useEmbeddedAuthStore({ directory }) })
  const { value: store, runNow } = await openForProcess(useStore)
  const browser = await getBrowserIdentity()
  const provider = createIdentityProvider({ issuer: config.issuer, clientId: config.clientId, clientSecret: config.clientSecret, groupsClaim: config.groupsClaim })
  const signIn = createSignIn({
    policy: { appUrl: config.appUrl, allowed: config.allowed, admins: config.admins, sessionMaxAgeMs: SESSION_MAX_AGE_MS, recheckAfterMs: RECHECK_AFTER_MS },
    provider,
    store,
    // Every request reads its session: without a task when the read is synchronous (embedded, memory).
    run: runNow,
    secret: server.sessionSecret,
    browser,
    guests: config.guests,
    // The chat app opens after the sign-in (its identity is the account): reached when a browser signs in, not before.
    adopt: async (from, to) => (await import('./chat-server-instance')).getChatApp().then((app) => app.adopt(from, to)),
    // Signing out without "keep my connected MCP servers": the account's tokens revoked and forgotten, its values too.
    forget: async (account) => {
      const [{ getMcpClients, getPersonalAccess }, { disconnectEveryServer }] = await Promise.all([import('./mcp-clients-instance'), import('../mcp/client/personal')])
      await disconnectEveryServer({ personal: await getPersonalAccess(), clients: await getMcpClients(), person: account })
    },
  })
  return { signIn, config }
}
