import { startRecordingProxy, type RecordingProxy } from '../../lib/mcp/client/testing/recording-proxy'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../../lib/testing/oauth-authorization-server'
import { freePort } from '../../lib/testing/server-process'
import { startApp, type AppProcess } from './app-process'

/** A second production instance of the app whose `/api/mcp` only a real authorization server's tokens open. */
export interface ProtectedRemote {
  /** Where clients reach its `/api/mcp`: through `proxy`, whose origin is its `APP_URL`. */
  mcpUrl: string
  authServer: TestAuthorizationServer
  app: AppProcess
  /** Every request the remote was sent, as it arrived (bodies and `Authorization` headers). */
  proxy: RecordingProxy
  /** The `tools/call` requests of `tool` the remote was sent that started a call (not the answers a 2026 call sends again with its `requestState`). */
  callsOf(tool: string): number
  /** Every access token a client presented to the remote. */
  accessTokens(): string[]
  close(): Promise<void>
}

/**
 * The remote of issue 36's browser tests: `oidc-provider` (`lib/testing/oauth-authorization-server.ts`,
 * dynamic registration, PKCE, resource indicators, JWT access tokens, revocation) on a free port,
 * in front of a production instance of this app with `MCP_AUTH_ISSUER` and `APP_URL`, reached
 * through a recording proxy on 127.0.0.1 so the test sees what the remote was asked and with
 * which tokens. The proxy's origin is the remote's `APP_URL`: its protected resource is
 * `<proxy>/api/mcp`, its `resource_metadata` on that same origin.
 */
export async function startProtectedRemote({ scopes = ['tools:book_flight'] }: { scopes?: string[] } = {}): Promise<ProtectedRemote> {
  const port = await freePort({ host: '127.0.0.1' })
  const proxy = await startRecordingProxy({ target: `http://127.0.0.1:${port}` })
  const mcpUrl = `${proxy.origin}/api/mcp`
  const authServer = await startTestAuthorizationServer({ resource: mcpUrl, scopes })
  const app = await startApp({ port, env: { MCP_AUTH_ISSUER: authServer.issuer, APP_URL: proxy.origin, MCP_AUTH_SCOPES: scopes.join(' ') } })
  const bodies = () => proxy.requests.flatMap((request) => (request.method === 'POST' && request.body ? [request.body] : []))
  return {
    mcpUrl,
    authServer,
    app,
    proxy,
    callsOf: (tool) =>
      bodies()
        .flatMap((body) => [JSON.parse(body)].flat() as Array<{ method?: string; params?: { name?: string; requestState?: unknown } }>)
        .filter((message) => message.method === 'tools/call' && message.params?.name === tool && message.params.requestState === undefined).length,
    accessTokens: () => [...new Set(proxy.requests.flatMap((request) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? []))],
    async close() {
      await app.kill()
      await proxy.close()
      await authServer.stop()
    },
  }
}
