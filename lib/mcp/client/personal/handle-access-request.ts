import { z } from 'zod'
import { readJsonBody, toApiFailure, type ClientIdentityResolver } from '../../../http'
import type { ToolAudience } from '../tool-audience'
import type { McpClients } from '../use-mcp-clients'
import { isMcpAccessRefusal, McpAccessRefusal } from './access-refusal'
import { isCredentialStoreUnavailable } from './credential-store'
import { disconnectPerson } from './disconnect-person'
import type { PersonalAccess, UrlServerConfig } from './personal-access'

/** What the routes under `app/api/mcp-oauth` need: who is asking, the servers, and each person's credentials. */
export interface AccessApp {
  identity: ClientIdentityResolver
  clients: McpClients
  /** Who may use which server (mcp.json's `users`, with sign-in): nobody connects to a server that is not theirs. */
  audience: ToolAudience
  /** Undefined when `mcp.json` has no `url` server. */
  personal: PersonalAccess | undefined
}

type PersonEndpoint = { action: 'connect' } | { action: 'callback' } | { action: 'disconnect' } | { action: 'variables' }
export type AccessEndpoint = PersonEndpoint | { action: 'client-metadata' }

const SMALL_BODY_BYTES = 16 * 1024
const serverBody = z.strictObject({ server: z.string().min(1).max(64), returnTo: z.string().max(2048).optional() })
const variablesBody = z.strictObject({ server: z.string().min(1).max(64), values: z.record(z.string(), z.unknown()) })

/**
 * The person's access to the servers of `mcp.json` that ask each person to connect: Connect
 * (where to send the browser), the OAuth callback (back to the chat), Disconnect, the values of
 * an entry's `userVariables`, and the app's client ID metadata document. Every refusal is
 * `{ error: { code, message } }` with its status; no token ever leaves the server.
 */
export async function handleAccessRequest({ app, request, endpoint }: { app: AccessApp; request: Request; endpoint: AccessEndpoint }): Promise<Response> {
  let headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  try {
    if (endpoint.action === 'client-metadata') return Response.json(requirePersonal(app).oauth.clientMetadata, { headers: { 'Cache-Control': 'public, max-age=3600' } })
    const client = await app.identity.identify(request)
    headers = { ...headers, ...client.headers }
    refuseOtherSites(request)
    const admits = (server: string) => app.audience.admits(server, client.person)
    const response = await answer({ app, request, endpoint, person: client.clientId, admits })
    for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value)
    return response
  } catch (error) {
    const failure = toApiFailure(error, { isOwn: isMcpAccessRefusal, isStoreUnavailable: isCredentialStoreUnavailable, what: 'MCP credentials' })
    if (failure) return failure.toResponse(headers)
    throw error
  }
}

async function answer({ app, request, endpoint, person, admits }: { app: AccessApp; request: Request; endpoint: PersonEndpoint; person: string; admits: (server: string) => boolean }): Promise<Response> {
  const personal = requirePersonal(app)
  const { clients } = app
  const personalServer = (name: string) => personalServerOf(clients, name, admits)
  switch (endpoint.action) {
    case 'connect': {
      const { server: name, returnTo } = parse(serverBody, await readJsonBody(request, SMALL_BODY_BYTES))
      const server = personalServer(name)
      if (server.userVariables && !server.oauth) throw new McpAccessRefusal('not_personal', `${name} asks for values, not an authorization: send them to /api/mcp-oauth/variables.`)
      const resourceMetadataUrl = clients.connection(name)?.challenge?.resourceMetadataUrl
      const url = await personal.oauth.connect({ person, server, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), returnTo: safeReturnPath(returnTo) })
      return Response.json({ authorizationUrl: url.href })
    }
    case 'callback': {
      const params = new URL(request.url).searchParams
      const state = params.get('state') ?? ''
      const code = params.get('code')
      const denied = params.get('error')
      if (denied !== null || !code) {
        // The person declined at the authorization server (or it sent no code): the flow is used up either way.
        const flow = await personal.oauth.abandon({ person, state })
        return back(flow?.returnTo ?? '/', { mcp_connect_error: `${flow?.server ?? 'The server'}: ${(params.get('error_description') ?? denied ?? 'no code came back').slice(0, 200)}` })
      }
      const iss = params.get('iss')
      const { server, returnTo } = await personal.oauth.finish({ person, state, code, ...(iss ? { iss } : {}), servers: (name) => (admits(name) ? clients.personalServer(name) : undefined) })
      // A connection made before (with a token since revoked) gives way to one with the new token.
      await clients.forgetPersonal(server, person)
      return back(returnTo, { mcp_connected: server })
    }
    case 'disconnect': {
      const { server: name } = parse(serverBody, await readJsonBody(request, SMALL_BODY_BYTES))
      const { revoked } = await disconnectPerson({ personal, clients, person, server: personalServer(name) })
      return Response.json({ server: name, disconnected: true, revoked })
    }
    case 'variables': {
      const { server: name, values } = parse(variablesBody, await readJsonBody(request, SMALL_BODY_BYTES))
      await personal.setVariables(person, personalServer(name), values)
      await clients.forgetPersonal(name, person)
      return Response.json({ server: name, saved: true })
    }
  }
}

function requirePersonal(app: AccessApp): PersonalAccess {
  if (!app.personal) throw new McpAccessRefusal('unknown_server', 'No MCP server of mcp.json asks people to connect.')
  return app.personal
}

/** The `url` server `name` that asks each person to connect; one that is not the person's is as unknown as one that does not exist. */
function personalServerOf(clients: McpClients, name: string, admits: (server: string) => boolean): UrlServerConfig {
  const server = admits(name) ? clients.personalServer(name) : undefined
  if (server) return server
  const known = admits(name) && clients.servers().some((info) => info.name === name)
  throw known
    ? new McpAccessRefusal('not_personal', `${name} does not ask each person to connect.`)
    : new McpAccessRefusal('unknown_server', `There is no MCP server named "${name}" in mcp.json.`)
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  throw new McpAccessRefusal('invalid_variables', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '))
}

/** A path of this app to come back to (never `//host`, `/\host` or a scheme: no open redirect). */
function safeReturnPath(path: string | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(path)) return '/'
  const url = new URL(path, 'http://app.invalid')
  return url.origin === 'http://app.invalid' && !url.pathname.startsWith('/api/') ? `${url.pathname}${url.search}` : '/'
}

/** Back to the chat, saying how connecting went. */
function back(path: string, say: Record<string, string>): Response {
  const url = new URL(path, 'http://app.invalid')
  for (const [name, value] of Object.entries(say)) url.searchParams.set(name, value)
  return new Response(null, { status: 303, headers: { location: `${url.pathname}${url.search}` } })
}

function refuseOtherSites(request: Request): void {
  if (request.method === 'GET' || request.method === 'HEAD') return
  const site = request.headers.get('sec-fetch-site')
  if (request.headers.get('origin') === 'null' || (site !== null && site !== 'same-origin' && site !== 'none')) {
    throw new McpAccessRefusal('forbidden_origin', 'MCP servers are connected from the chat page only.')
  }
}
