import type { ClientIdentityResolver } from '../../../../http'
import type { McpServerConnection } from '../../server-connection'
import type { McpClients } from '../../use-mcp-clients'
import { handleAccessRequest, type AccessApp } from '../handle-access-request'
import { CALLBACK_PATH } from '../personal-oauth'

/** A browser of its own (its identity cookie) and the person id the chat keeps its credentials under. */
export interface TestBrowser {
  cookie: string
  person: string
}

/**
 * What a test does as people connecting to a server of `mcp.json` that asks each person to: a
 * new browser, the access routes (`/api/mcp-oauth/*`) called as the chat page calls them, the
 * authorization server's own login and consent pages (`login`: lib/auth/testing's
 * `loginAtProvider`, which lib/mcp may not import), and waits on the clients' status changes
 * (never a timer).
 */
export function personalConnectFlow({
  app,
  identity,
  appUrl,
  login: loginAt,
}: {
  app: AccessApp
  identity: ClientIdentityResolver
  appUrl: URL
  /** Signs `login` in from `authorizationUrl`; resolves with the URL the browser is sent back to (starting with `redirectUriPrefix`). */
  login: (authorizationUrl: string, login: string, options: { redirectUriPrefix: string }) => Promise<URL>
}) {
  const clients: McpClients = app.clients

  function browser(): TestBrowser {
    const made = identity.resolve(new Request(appUrl))
    return { cookie: made.headers['Set-Cookie']!.split(';')[0]!, person: made.clientId }
  }

  function post(action: 'connect' | 'disconnect', who: { cookie: string }, body: unknown): Promise<Response> {
    const request = new Request(new URL(`/api/mcp-oauth/${action}`, appUrl), {
      method: 'POST',
      headers: { cookie: who.cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(body),
    })
    return handleAccessRequest({ app, request, endpoint: { action } })
  }

  async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
    for (;;) {
      const value = await check()
      if (value !== undefined) return value
      await clients.changed(new AbortController().signal)
    }
  }

  const statusFor = async (server: string, person: string) => (await clients.serversFor(person)).find(({ name }) => name === server)?.status

  return {
    browser,
    post,
    /** Until `check` holds, waiting on the clients' status changes. */
    until,
    statusFor,
    /** Until the shared connection to `server` says each person must connect. */
    needsConnect: (server: string) => until(async () => (clients.connection(server)?.status === 'needs_connect' ? true : undefined)),
    /** Connect, sign in as `login`, come back through the callback (which must say 303); the person's own connection once it is ready. */
    async connectAs(server: string, who: TestBrowser, login: string): Promise<{ authorizationUrl: URL; connection: McpServerConnection }> {
      const started = await post('connect', who, { server })
      if (started.status !== 200) throw new Error(`Connect answered ${started.status}: ${await started.text()}`)
      const authorizationUrl = new URL(((await started.json()) as { authorizationUrl: string }).authorizationUrl)
      const back = await loginAt(authorizationUrl.href, login, { redirectUriPrefix: new URL(CALLBACK_PATH, appUrl).href })
      const finished = await handleAccessRequest({ app, request: new Request(back, { headers: { cookie: who.cookie } }), endpoint: { action: 'callback' } })
      if (finished.status !== 303) throw new Error(`The callback answered ${finished.status}: ${await finished.text()}`)
      const connection = await until(async () => ((await statusFor(server, who.person)) === 'ready' ? clients.personalConnection(server, who.person) : undefined))
      return { authorizationUrl, connection: connection! }
    },
  }
}
