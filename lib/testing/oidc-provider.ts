import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Configuration } from 'oidc-provider'

/** A person the test provider knows: they sign in with `login` (any password) on its own login page. */
export interface TestPerson {
  login: string
  email: string
  name: string
  groups?: string[]
}

/** The people every sign-in test meets: alice (allowed, admin), bob (allowed), carol (another company: not allowed). */
export const TEST_PEOPLE: readonly TestPerson[] = [
  { login: 'alice', email: 'alice@example.com', name: 'Alice Example', groups: ['eng', 'admins'] },
  { login: 'bob', email: 'bob@example.com', name: 'Bob Example', groups: ['eng'] },
  { login: 'carol', email: 'carol@other.org', name: 'Carol Other', groups: [] },
]

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: `AUTH_OIDC_ISSUER`. */
  issuer: string
  clientId: string
  clientSecret: string
  /** The person can no longer sign in or refresh a session (disabled at the provider). */
  disable(login: string): void
  /** The provider goes down (its port closed) / comes back on the same port. */
  stop(): Promise<void>
  restart(): Promise<void>
}

/**
 * A real OpenID Provider for tests: `oidc-provider` (a certified implementation), in this process
 * on a free port of 127.0.0.1, with one confidential client whose redirect URIs are
 * `redirectUris`, its own login and consent pages (any password), refresh tokens for every
 * sign-in, and `people`. Its ID tokens are signed with a key of its own, made at start.
 */
export async function startTestOidcProvider({ redirectUris, people = TEST_PEOPLE, port = 0 }: { redirectUris: string[]; people?: readonly TestPerson[]; port?: number }): Promise<TestOidcProvider> {
  const disabled = new Set<string>()
  let handle: Parameters<typeof createServer>[1] = (_request, response) => response.writeHead(503).end()
  let server: Server = createServer((request, response) => handle!(request, response))
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const bound = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${bound}`
  const clientId = 'elicit-chat'
  const clientSecret = 'a-client-secret-for-tests-only-0123456789'
  const configuration: Configuration = {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    // Groups come with every ID token, as Keycloak's and Entra's group mappers put them there.
    claims: { openid: ['sub', 'groups'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    issueRefreshToken: async () => true,
    async findAccount(_ctx, id) {
      const person = people.find((candidate) => candidate.login === id)
      if (!person || disabled.has(person.login)) return undefined
      return {
        accountId: person.login,
        async claims() {
          return { sub: person.login, email: person.email, email_verified: true, name: person.name, groups: person.groups ?? [] }
        },
      }
    },
    conformIdTokenClaims: false,
  }
  const provider = new Provider(issuer, configuration)
  provider.on('server_error', (_ctx, error) => console.error('test OIDC provider:', error))
  const callback = provider.callback()
  handle = callback
  return {
    issuer,
    clientId,
    clientSecret,
    disable: (login) => void disabled.add(login),
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
    async restart() {
      server = createServer((request, response) => handle!(request, response))
      await new Promise<void>((resolve) => server.listen(bound, '127.0.0.1', resolve))
    },
  }
}
