import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { appWithSdk } from '../../apps/testing/inline-app-sdk.mjs'
import { MCP_APP_MIME_TYPE } from '../../mcp-apps-extension'
import { createResourceAuth } from '../../server/resource-auth'
import { startTestAuthorizationServer, type TestAuthorizationServer } from '../../../testing/oauth-authorization-server'

/** The MCP App of `whoami` (`_meta.ui.resourceUri`). */
export const WHOAMI_APP_URI = 'ui://whoami/app.html'
/** On the official App SDK: once the tool's result is in, it calls `whoami` itself, through the host, and shows the answer (or the refusal). */
export const WHOAMI_APP_HTML = appWithSdk({
  body: '<p>The whoami app</p><p id="who">waiting for the result</p>',
  script: `const who = document.getElementById('who')
const app = new McpApps.App({ name: 'whoami-app', version: '1.0.0' }, {})
app.ontoolresult = async () => {
  try {
    const result = await app.callServerTool({ name: 'whoami', arguments: {} })
    who.textContent = 'the app asked: ' + result.content[0].text
  } catch (error) {
    who.textContent = 'the app was refused: ' + error.message
  }
}
await app.connect()`,
})

export interface OAuthSseServer {
  /** `http://127.0.0.1:<port>/sse`: the event stream; its messages go to `/messages?sessionId=…`. */
  url: URL
  /** The authorization server in front of it. */
  authServer: TestAuthorizationServer
  /** From now on, tokens of `subject` are refused (`401 invalid_token`), as after their grant was revoked. */
  refuse(subject: string): void
  close(): Promise<void>
}

/**
 * A legacy MCP server (the 2024-11-05 HTTP+SSE transport, the official v1 SDK's
 * `SSEServerTransport`) that is an OAuth protected resource of a real authorization server
 * (`startTestAuthorizationServer`): its event stream and its messages take only that server's
 * tokens for it (checked by `createResourceAuth`), a request without one is a `401` naming its
 * protected resource metadata (RFC 9728). One tool, `whoami`, answers with the token's subject,
 * so a test sees whose token a call carried; it has an MCP App.
 */
export async function startOAuthSseServer(): Promise<OAuthSseServer> {
  const http = createServer((request, response) => void handle(request, response).catch((error: Error) => response.writeHead(500).end(error.message)))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const url = new URL('/sse', origin)
  const authServer = await startTestAuthorizationServer({ resource: url.href, scopes: ['whoami'] })
  const resourceAuth = createResourceAuth({ issuer: authServer.issuer, resource: url.href, scopes: ['whoami'], principalOf: (_issuer, subject) => subject })
  const sessions = new Map<string, { transport: SSEServerTransport; subject: string }>()
  const refused = new Set<string>()

  async function authorized(request: IncomingMessage, response: ServerResponse): Promise<AuthInfo | undefined> {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
    const check = token ? await resourceAuth.verify(token) : undefined
    if (check?.ok && !refused.has(check.authInfo.clientId)) return check.authInfo
    response
      .writeHead(check && !check.ok ? check.status : 401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer ${check ? 'error="invalid_token", ' : ''}resource_metadata="${resourceAuth.resourceMetadataUrl}"`,
      })
      .end(JSON.stringify({ error: check ? 'invalid_token' : 'unauthorized' }))
    return undefined
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url!, origin).pathname
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      const document = resourceAuth.metadataResponse()
      response.writeHead(document.status, Object.fromEntries(document.headers)).end(await document.text())
      return
    }
    if (request.method === 'GET' && path === '/sse') {
      const auth = await authorized(request, response)
      if (!auth) return
      const transport = new SSEServerTransport('/messages', response)
      sessions.set(transport.sessionId, { transport, subject: auth.clientId })
      transport.onclose = () => sessions.delete(transport.sessionId)
      await whoamiServer().connect(transport)
      return
    }
    if (request.method === 'POST' && path === '/messages') {
      const auth = await authorized(request, response)
      if (!auth) return
      const session = sessions.get(new URL(request.url!, origin).searchParams.get('sessionId') ?? '')
      // A session is its opener's: another person's token does not reach it.
      if (!session || session.subject !== auth.clientId) return void response.writeHead(404).end('no such session')
      await session.transport.handlePostMessage(Object.assign(request, { auth }), response)
      return
    }
    response.writeHead(404).end()
  }

  return {
    url,
    authServer,
    refuse: (subject) => void refused.add(subject),
    async close() {
      await Promise.all([...sessions.values()].map(({ transport }) => transport.close()))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      await authServer.stop()
    },
  }
}

function whoamiServer(): McpServer {
  const server = new McpServer({ name: 'oauth-sse-whoami', version: '1.0.0' })
  server.registerTool('whoami', { description: 'Says whose token the call carried.', annotations: { readOnlyHint: true }, _meta: { ui: { resourceUri: WHOAMI_APP_URI } } }, (extra) => ({
    content: [{ type: 'text', text: `signed in as ${extra.authInfo?.clientId ?? 'nobody'}` }],
  }))
  server.registerResource('whoami app', WHOAMI_APP_URI, { mimeType: MCP_APP_MIME_TYPE }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: WHOAMI_APP_HTML }],
  }))
  return server
}
