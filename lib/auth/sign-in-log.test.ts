import { createHash } from 'node:crypto'
import { run } from 'effection'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installRequestTelemetry, parsePeopleList } from '../http'
import { serveFetch } from '../mcp/server/testing/serve-fetch'
import { captureServerLog } from '../telemetry/testing/server-log'
import { accountIdOf } from './account'
import { createIdentityProvider } from './identity-provider'
import { createSignIn } from './sign-in'
import { createMemoryAuthStore } from './stores/memory-store'
import { signInThroughProvider } from './testing/provider-login'
import { TEST_APP as APP, TEST_SECRET as SECRET, useTestOidcProvider } from './testing/test-provider'

/**
 * The request log of a signed-in person, over real HTTP with the request hook installed as the
 * server installs it: a signed-in request carries no browser-identity cookie, and its line's
 * `identity` is the account's, hashed.
 */
const op = useTestOidcProvider()
installRequestTelemetry()

const closing: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16)

describe('the request line of a signed-in person', () => {
  it('has the account hashed as its identity: one value for two sessions of one account, another for another account, none without a session', { timeout: 30_000 }, async () => {
    const signIn = createSignIn({
      policy: { appUrl: APP, allowed: parsePeopleList({ emails: '@example.com' }), admins: parsePeopleList({}), sessionMaxAgeMs: 3600_000, recheckAfterMs: 60_000 },
      provider: createIdentityProvider({ issuer: op().issuer, clientId: op().clientId, clientSecret: op().clientSecret, groupsClaim: 'groups' }),
      store: createMemoryAuthStore(),
      run: (operation) => run(operation),
      secret: SECRET,
    })
    const log = captureServerLog()
    closing.push(log.restore)
    // Two devices of alice's (two sessions), and bob.
    const sessions: string[] = []
    for (const login of ['alice', 'alice', 'bob']) sessions.push((await signInThroughProvider(signIn, { app: APP, login })).session!)
    expect(new Set(sessions).size).toBe(3)

    // A route as every API route is: it asks who is signed in first.
    const server = await serveFetch(async (request) => new Response((await signIn.account(request))?.email ?? 'nobody'))
    closing.push(server.close)
    const answers: string[] = []
    for (const cookie of [...sessions, undefined]) answers.push(await (await fetch(`${server.url.origin}/api/chats`, { headers: cookie ? { cookie } : {} })).text())
    expect(answers).toEqual(['alice@example.com', 'alice@example.com', 'bob@example.com', 'nobody'])

    const requestLines = () => log.lines.filter((line) => line.msg === 'request' && line.route === '/api/chats')
    await vi.waitFor(() => expect(requestLines()).toHaveLength(4))
    const alice = hashOf(accountIdOf(op().issuer, 'alice'))
    const bob = hashOf(accountIdOf(op().issuer, 'bob'))
    expect(requestLines().map((line) => line.identity)).toEqual([alice, alice, bob, undefined])
    expect(requestLines()[3]).not.toHaveProperty('identity')
    // Never the account's id, nor the session.
    const written = JSON.stringify(log.lines)
    for (const secret of [accountIdOf(op().issuer, 'alice'), ...sessions.map((cookie) => cookie.split('=')[1]!)]) expect(written).not.toContain(secret)
  })
})
