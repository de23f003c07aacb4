import { randomBytes } from 'node:crypto'
import {
  auth,
  refreshAuthorization,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import type { Operation } from 'effection'
import type { PersonalAccess } from '../mcp-servers-config'
import { isCredentialStoreUnavailable } from './credential-store'
import { McpAccessRefusal } from './access-refusal'
import { personalId, type ConnectFlow, type KeptTokens, type SealedCredentials } from './sealed-credentials'

/** A `url` server of `mcp.json` as the OAuth flow needs it. */
export interface OAuthServer extends PersonalAccess {
  name: string
  url: URL
}

/** How long an authorization may take, from Connect to the callback. */
export const CONNECT_FLOW_MS = 10 * 60_000
/** A token this close to its expiry is refreshed before it is used. */
export const REFRESH_AHEAD_MS = 60_000
/** How long Disconnect waits for the authorization server to revoke a token. */
const REVOKE_TIMEOUT_MS = 5_000
/** How long each request of the flow (metadata, registration, token) may take before it fails. */
export const AUTHORIZATION_REQUEST_TIMEOUT_MS = 10_000

export const CALLBACK_PATH = '/api/mcp-oauth/callback'
export const CLIENT_METADATA_PATH = '/api/mcp-oauth/client'

export interface PersonalOAuth {
  /** The app's client ID metadata document (served at `CLIENT_METADATA_PATH`). */
  readonly clientMetadata: OAuthClientMetadata
  /**
   * Start connecting `person` to `server`: discovery from the server's `resource_metadata`
   * (same origin as the server, or refused), the authorization server's metadata, the app's
   * registration (the entry's `oauth.clientId`, else its client ID metadata document when the
   * server supports them and the app is on https, else dynamic registration), PKCE and `resource`.
   * Resolves with where to send the person's browser.
   */
  connect(args: { person: string; server: OAuthServer; resourceMetadataUrl?: URL; returnTo: string }): Promise<URL>
  /** The callback: the flow `state` names, taken once, must be this person's; the code is exchanged and the tokens kept. Resolves with the server's name and where to go back to. */
  finish(args: { person: string; state: string; code: string; iss?: string; servers: (name: string) => OAuthServer | undefined }): Promise<{ server: string; returnTo: string }>
  /** A callback without a code (the person declined): the flow is used up; it is returned when it was this person's. */
  abandon(args: { person: string; state: string }): Promise<ConnectFlow | undefined>
  /** The person's access token for the server, refreshed first if it lapses within a minute; undefined when they must connect. */
  accessToken(args: { person: string; server: OAuthServer }): Promise<string | undefined>
  /** Whether the person holds tokens for the server (expired ones count: they may refresh). */
  connected(args: { person: string; server: string }): Promise<boolean>
  /** Forget the person's tokens for the server, revoking them first where the authorization server offers it (RFC 7009). */
  disconnect(args: { person: string; server: OAuthServer }): Promise<{ revoked: boolean }>
}

/**
 * The chat as an OAuth client of the remote MCP servers, per person, on the official SDK's
 * `auth()` (discovery, registration, PKCE, `resource`, code exchange, refresh); what it leaves to
 * a host is here: the flow kept across the redirect by `state` and bound to the person, the
 * origin of `resource_metadata`, refreshing ahead of expiry, revocation, and every token sealed
 * in the store, never in a response or a log line.
 */
export function createPersonalOAuth({
  credentials,
  run,
  appUrl,
  fetchFn: given,
  requestTimeoutMs = AUTHORIZATION_REQUEST_TIMEOUT_MS,
}: {
  credentials: SealedCredentials
  run: <R>(operation: () => Operation<R>) => Promise<R>
  /** The app's public origin (`APP_URL`): where the callback is and the metadata document is served. */
  appUrl: URL
  fetchFn?: FetchLike
  /** Each request to the resource's metadata and the authorization server: an answer that takes longer fails the flow. */
  requestTimeoutMs?: number
}): PersonalOAuth {
  const base = given ?? fetch
  // A slow or silent authorization server fails the flow with a clear error, never holds it.
  const fetchFn: FetchLike = (url, init) => base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(requestTimeoutMs)]) : AbortSignal.timeout(requestTimeoutMs) })
  const redirectUrl = new URL(CALLBACK_PATH, appUrl).href
  const metadataUrl = new URL(CLIENT_METADATA_PATH, appUrl).href
  const clientMetadata: OAuthClientMetadata = {
    client_id: metadataUrl,
    client_name: 'Elicit Chat',
    client_uri: new URL('/', appUrl).href,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  } as OAuthClientMetadata
  // Client ID metadata documents must be fetched over https (the SDK refuses others).
  const clientMetadataUrl = appUrl.protocol === 'https:' ? metadataUrl : undefined
  const refreshing = new Map<string, Promise<string | undefined>>()
  const stored = <T>(operation: () => Operation<T>) => run(operation).catch(storeRefusal)

  /** One run of the SDK's `auth()`, for one person and one server: what it reads and writes. */
  class FlowProvider implements OAuthClientProvider {
    authorizationUrl?: URL
    verifier = ''
    discovery: OAuthDiscoveryState | undefined
    resource: string | undefined
    readonly stateValue = randomBytes(32).toString('base64url')
    readonly redirectUrl = redirectUrl
    readonly clientMetadataUrl = clientMetadataUrl
    constructor(
      readonly person: string,
      readonly server: OAuthServer,
      from?: ConnectFlow,
    ) {
      this.verifier = from?.codeVerifier ?? ''
      this.discovery = from?.discovery
    }
    get clientMetadata(): OAuthClientMetadata {
      const { client_id: _, ...metadata } = clientMetadata as OAuthClientMetadata & { client_id?: string }
      return { ...metadata, ...(this.server.oauth?.clientSecret ? { token_endpoint_auth_method: 'client_secret_basic' } : {}) }
    }
    state = () => this.stateValue
    clientInformation = () => clientOf(this.server)
    saveClientInformation = (information: StoredOAuthClientInformation) => stored(() => credentials.put('client', this.server.name, information))
    tokens = async () => (await stored(() => credentials.get('tokens', personalId(this.server.name, this.person))))?.tokens
    saveTokens = (tokens: StoredOAuthTokens) =>
      stored(() =>
        credentials.put('tokens', personalId(this.server.name, this.person), {
          tokens,
          savedAt: Date.now(),
          ...(this.discovery ? { discovery: this.discovery } : {}),
          ...(this.resource ? { resource: this.resource } : {}),
        }),
      )
    redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url)
    saveCodeVerifier = (verifier: string) => void (this.verifier = verifier)
    codeVerifier = () => this.verifier
    saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.discovery = state)
    discoveryState = () => this.discovery
    saveResourceUrl = (resource: string) => void (this.resource = resource)
    invalidateCredentials = async (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') => {
      if ((scope === 'all' || scope === 'client') && !this.server.oauth) await stored(() => credentials.delete('client', this.server.name))
      if (scope === 'all' || scope === 'tokens') await stored(() => credentials.delete('tokens', personalId(this.server.name, this.person)))
    }
  }

  async function clientOf(server: OAuthServer): Promise<StoredOAuthClientInformation | undefined> {
    if (server.oauth) return { client_id: server.oauth.clientId, ...(server.oauth.clientSecret ? { client_secret: server.oauth.clientSecret } : {}) }
    return stored(() => credentials.get('client', server.name))
  }

  async function refresh(person: string, server: OAuthServer, kept: KeptTokens): Promise<string | undefined> {
    const id = personalId(server.name, person)
    const client = await clientOf(server)
    if (!kept.tokens.refresh_token || !kept.discovery || !client) return undefined
    try {
      const tokens = await refreshAuthorization(kept.discovery.authorizationServerUrl, {
        metadata: kept.discovery.authorizationServerMetadata,
        clientInformation: client,
        refreshToken: kept.tokens.refresh_token,
        ...(kept.resource ? { resource: new URL(kept.resource) } : {}),
        fetchFn,
      })
      // A server may not send a new refresh token: the old one stays good.
      const next = { ...kept, tokens: { ...tokens, refresh_token: tokens.refresh_token ?? kept.tokens.refresh_token }, savedAt: Date.now() }
      await stored(() => credentials.put('tokens', id, next))
      return next.tokens.access_token
    } catch {
      // Refused (revoked, expired) or unreachable: the person connects again.
      return undefined
    }
  }

  return {
    clientMetadata,
    async connect({ person, server, resourceMetadataUrl, returnTo }) {
      if (resourceMetadataUrl && resourceMetadataUrl.origin !== server.url.origin) {
        throw new McpAccessRefusal(
          'foreign_resource_metadata',
          `${server.name} names its protected resource metadata at ${resourceMetadataUrl.origin}, another origin than its own (${server.url.origin}); the chat does not follow it.`,
        )
      }
      const provider = new FlowProvider(person, server)
      const result = await authorizing(server, () =>
        auth(provider, { serverUrl: server.url, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(server.oauth?.scope ? { scope: server.oauth.scope } : {}), fetchFn }),
      )
      if (result !== 'REDIRECT' || !provider.authorizationUrl) {
        throw new McpAccessRefusal('authorization_failed', `${server.name}'s authorization server did not ask the person to sign in; connect again.`)
      }
      const flow: ConnectFlow = { person, server: server.name, codeVerifier: provider.verifier, ...(provider.discovery ? { discovery: provider.discovery } : {}), returnTo, expiresAt: Date.now() + CONNECT_FLOW_MS }
      await stored(() => credentials.put('flow', provider.stateValue, flow, flow.expiresAt))
      return provider.authorizationUrl
    },
    async finish({ person, state, code, iss, servers }) {
      const flow = await stored(() => credentials.take('flow', state))
      if (!flow || flow.expiresAt <= Date.now()) {
        throw new McpAccessRefusal('unknown_authorization', 'This authorization is unknown, was used already, or took longer than 10 minutes: press Connect again.')
      }
      if (flow.person !== person) throw new McpAccessRefusal('not_your_authorization', 'This authorization was started by another person or browser; it was not used.')
      const server = servers(flow.server)
      if (!server) throw new McpAccessRefusal('unknown_server', `There is no MCP server named "${flow.server}" any more.`)
      const provider = new FlowProvider(person, server, flow)
      const resourceMetadataUrl = flow.discovery?.resourceMetadataUrl ? new URL(flow.discovery.resourceMetadataUrl) : undefined
      await authorizing(server, () =>
        auth(provider, { serverUrl: server.url, authorizationCode: code, ...(iss ? { iss } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), fetchFn }),
      )
      return { server: server.name, returnTo: flow.returnTo }
    },
    async abandon({ person, state }) {
      const flow = state ? await stored(() => credentials.take('flow', state)) : undefined
      return flow?.person === person ? flow : undefined
    },
    async accessToken({ person, server }) {
      const id = personalId(server.name, person)
      const kept = await stored(() => credentials.get('tokens', id))
      if (!kept) return undefined
      const lapses = kept.tokens.expires_in === undefined ? Infinity : kept.savedAt + kept.tokens.expires_in * 1000
      if (lapses - REFRESH_AHEAD_MS > Date.now()) return kept.tokens.access_token
      // One refresh at a time per person and server: the others wait for it.
      let pending = refreshing.get(id)
      if (!pending) {
        pending = refresh(person, server, kept).finally(() => refreshing.delete(id))
        refreshing.set(id, pending)
      }
      return pending
    },
    async connected({ person, server }) {
      return (await stored(() => credentials.get('tokens', personalId(server, person)))) !== undefined
    },
    async disconnect({ person, server }) {
      const kept = await stored(() => credentials.take('tokens', personalId(server.name, person)))
      const endpoint = (kept?.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint
      const client = kept && (await clientOf(server))
      if (!kept || typeof endpoint !== 'string' || !client) return { revoked: false }
      // Revoking the refresh token ends the grant (RFC 7009 §2.1); an access token is revoked too where the
      // server can (a JWT often cannot: `unsupported_token_type`), and otherwise lapses on its own.
      const access = await revoke(endpoint, kept.tokens.access_token, 'access_token', client, fetchFn)
      const revoked = kept.tokens.refresh_token ? await revoke(endpoint, kept.tokens.refresh_token, 'refresh_token', client, fetchFn) : access
      return { revoked }
    },
  }
}

/** RFC 7009: the token revoked at `endpoint`, the client authenticated as at the token endpoint. */
async function revoke(endpoint: string, token: string, hint: string, client: StoredOAuthClientInformation, fetchFn: FetchLike): Promise<boolean> {
  const body = new URLSearchParams({ token, token_type_hint: hint })
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (client.client_secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`
  else body.set('client_id', client.client_id)
  try {
    const response = await fetchFn(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) })
    await response.body?.cancel()
    return response.ok
  } catch {
    return false
  }
}

/** The SDK's flow, its failures said for people without the server's whole answer (which could echo a code). */
async function authorizing<T>(server: OAuthServer, flow: () => Promise<T>): Promise<T> {
  try {
    return await flow()
  } catch (error) {
    if (error instanceof McpAccessRefusal || isCredentialStoreUnavailable(error)) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new McpAccessRefusal('authorization_failed', `Connecting to ${server.name} failed at its authorization server: ${message.slice(0, 300)}`)
  }
}

function storeRefusal(error: unknown): never {
  if (isCredentialStoreUnavailable(error)) throw new McpAccessRefusal('store_unavailable', 'The credentials of MCP servers cannot be reached right now; try again in a moment.')
  throw error
}
