import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose'
import type { AuthInfo } from '@modelcontextprotocol/server'
import { logFailure } from '../../http/failure-log'

/**
 * `/api/mcp` as an OAuth 2.1 protected resource (MCP's authorization section, RFC 9728): it takes
 * access tokens its authorization server (`MCP_AUTH_ISSUER`) issued for it — JWTs checked against
 * the server's keys, or opaque tokens asked about by introspection (RFC 7662) — and the token's
 * subject is the caller.
 */
export interface ResourceAuthOptions {
  /** The authorization server's issuer identifier (`MCP_AUTH_ISSUER`). */
  issuer: string
  /** This resource's identifier, `${APP_URL}/api/mcp`: a token's `aud` must name it. */
  resource: string
  /** The scopes the server knows (`MCP_AUTH_SCOPES`); `tools:<name>` makes that tool need it. */
  scopes: readonly string[]
  /** Opaque tokens are introspected at `url` with the resource's own client credentials. */
  introspection?: { url: string; clientId: string; clientSecret: string }
  /** The caller's principal from the token's issuer and subject (the app's account id). */
  principalOf: (issuer: string, subject: string) => string
  /** Clock skew allowed on `exp`/`nbf`/`iat` (default 60 s). */
  clockToleranceSeconds?: number
}

/** A token accepted (its caller), or why not: 401 for the token, 503 when the issuer cannot be asked. */
export type TokenCheck = { ok: true; authInfo: AuthInfo } | { ok: false; status: 401 | 503; message: string }

export interface ResourceAuth {
  readonly resource: string
  /** Where the resource's metadata is: `/.well-known/oauth-protected-resource/api/mcp` of its origin. */
  readonly resourceMetadataUrl: string
  /** The RFC 9728 document. */
  metadata(): Record<string, unknown>
  /** The document as `/.well-known/oauth-protected-resource[/api/mcp]` answers it. */
  metadataResponse(): Response
  verify(token: string): Promise<TokenCheck>
  /** The scope a JSON-RPC message needs, when it calls a tool that `MCP_AUTH_SCOPES` names. */
  scopeNeededFor(message: unknown): string | undefined
}

/** A JWT already verified is taken again without its signature checked, until it expires; at most this many kept. */
const VERIFIED_KEPT = 1000

/** The discovery document and keys are looked for again no sooner than this after a failure. */
const DISCOVERY_RETRY_MS = 5_000

export function createResourceAuth(options: ResourceAuthOptions): ResourceAuth {
  const { issuer, resource, scopes, introspection, principalOf } = options
  const clockTolerance = options.clockToleranceSeconds ?? 60
  const resourceUrl = new URL(resource)
  const resourceMetadataUrl = `${resourceUrl.origin}/.well-known/oauth-protected-resource${resourceUrl.pathname === '/' ? '' : resourceUrl.pathname}`
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined
  let failedAt = 0
  // A host sends the same token with every request: its signature is checked once (a Map keeps insertion order, the oldest goes first).
  const verified = new Map<string, AuthInfo & { expiresAt: number }>()

  /** The issuer's keys, from its metadata's `jwks_uri`: found once, then jose caches them (and refetches on an unknown `kid`, with a cooldown). */
  function issuerKeys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (!keys || (failedAt && Date.now() - failedAt >= DISCOVERY_RETRY_MS)) {
      failedAt = 0
      keys = discoverJwksUri(issuer).then((uri) => createRemoteJWKSet(new URL(uri), { timeoutDuration: 5_000, cooldownDuration: 30_000 }))
      // Notes when discovery failed, to try it again after DISCOVERY_RETRY_MS; the callers awaiting `keys` get the failure itself.
      keys.catch(() => (failedAt = Date.now()))
    }
    return keys
  }

  function accepted(payload: JWTPayload & { scope?: unknown; client_id?: unknown }, token: string): TokenCheck {
    if (typeof payload.sub !== 'string' || payload.sub === '') return { ok: false, status: 401, message: 'Unauthorized: the access token names no subject (sub).' }
    return {
      ok: true,
      authInfo: {
        token,
        clientId: principalOf(issuer, payload.sub),
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
        resource: resourceUrl,
      },
    }
  }

  async function verifyJwt(token: string): Promise<TokenCheck> {
    const known = verified.get(token)
    if (known && known.expiresAt + clockTolerance >= Date.now() / 1000) return { ok: true, authInfo: known }
    verified.delete(token)
    let jwks: ReturnType<typeof createRemoteJWKSet>
    try {
      jwks = await issuerKeys()
    } catch (error) {
      unreachable('mcp_auth_keys_unavailable', 'MCP_AUTH_ISSUER’s keys cannot be found', error)
      return { ok: false, status: 503, message: 'The authorization server cannot be reached to check the access token. Try again in a moment.' }
    }
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: resource, clockTolerance, requiredClaims: ['exp'] })
      const checked = accepted(payload, token)
      if (checked.ok && checked.authInfo.expiresAt !== undefined) {
        if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!)
        verified.set(token, { ...checked.authInfo, expiresAt: checked.authInfo.expiresAt })
      }
      return checked
    } catch (error) {
      const refused = jwtRefusal(error)
      if (refused) return { ok: false, status: 401, message: refused }
      unreachable('mcp_auth_keys_unavailable', 'MCP_AUTH_ISSUER’s keys cannot be fetched', error)
      return { ok: false, status: 503, message: 'The authorization server cannot be reached to check the access token. Try again in a moment.' }
    }
  }

  async function introspect(token: string, via: NonNullable<ResourceAuthOptions['introspection']>): Promise<TokenCheck> {
    let answer: Record<string, unknown>
    try {
      const response = await fetch(via.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(via.clientId)}:${encodeURIComponent(via.clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(5_000),
      })
      if (!response.ok) throw new Error(`the introspection endpoint answered ${response.status}`)
      answer = (await response.json()) as Record<string, unknown>
    } catch (error) {
      unreachable('mcp_auth_introspection_failed', 'MCP_AUTH_INTROSPECTION cannot be asked', error)
      return { ok: false, status: 503, message: 'The authorization server cannot be reached to check the access token. Try again in a moment.' }
    }
    if (answer.active !== true) return { ok: false, status: 401, message: 'Unauthorized: the access token is not active (expired, revoked or unknown).' }
    if (answer.iss !== undefined && answer.iss !== issuer) return { ok: false, status: 401, message: 'Unauthorized: the access token was issued by another authorization server.' }
    const audience = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : []
    if (!audience.includes(resource)) return { ok: false, status: 401, message: `Unauthorized: the access token is not for this resource (${resource}).` }
    if (typeof answer.exp === 'number' && answer.exp + clockTolerance < Date.now() / 1000) return { ok: false, status: 401, message: 'Unauthorized: the access token has expired.' }
    return accepted(answer as JWTPayload, token)
  }

  return {
    resource,
    resourceMetadataUrl,
    metadata: () => ({
      resource,
      authorization_servers: [issuer],
      scopes_supported: [...scopes],
      bearer_methods_supported: ['header'],
      resource_name: 'Elicit Chat MCP server',
    }),
    metadataResponse() {
      return Response.json(this.metadata(), { headers: { 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' } })
    },
    verify(token) {
      if (looksLikeJwt(token)) return verifyJwt(token)
      if (introspection) return introspect(token, introspection)
      return Promise.resolve({ ok: false, status: 401, message: 'Unauthorized: the access token is not a JWT, and this server does not introspect tokens (MCP_AUTH_INTROSPECTION).' })
    },
    scopeNeededFor(message) {
      const call = message as { method?: unknown; params?: { name?: unknown } } | null
      if (typeof call !== 'object' || call === null || call.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined
      const scope = `tools:${call.params.name}`
      return scopes.includes(scope) ? scope : undefined
    },
  }
}

function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)
}

/** What a JWT the server's keys were fetched for is refused for, or undefined when the keys themselves failed. */
function jwtRefusal(error: unknown): string | undefined {
  if (error instanceof joseErrors.JWTExpired) return 'Unauthorized: the access token has expired.'
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'Unauthorized: the access token is not for this resource (its aud).'
    if (error.claim === 'iss') return 'Unauthorized: the access token was issued by another authorization server.'
    return `Unauthorized: the access token's ${error.claim} claim is not valid (${error.reason}).`
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return 'Unauthorized: the access token is not signed by the authorization server.'
  }
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid || error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return 'Unauthorized: the access token is not a valid JWT.'
  }
  return undefined
}

/** The issuer's `jwks_uri`: from its OpenID configuration, or its RFC 8414 metadata; the document must name the same issuer. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const url = new URL(issuer)
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '')
  const candidates = [`${url.origin}${path}/.well-known/openid-configuration`, `${url.origin}/.well-known/oauth-authorization-server${path}`]
  let last: unknown
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5_000) })
      if (!response.ok) throw new Error(`${candidate} answered ${response.status}`)
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown }
      if (metadata.issuer !== issuer) throw new Error(`${candidate} names the issuer ${String(metadata.issuer)}, not ${issuer}`)
      if (typeof metadata.jwks_uri !== 'string') throw new Error(`${candidate} has no jwks_uri`)
      return metadata.jwks_uri
    } catch (error) {
      last = error
    }
  }
  throw last
}

/**
 * The authorization server could not be asked (each request is refused with a 503 meanwhile):
 * at `warn`, with the error's description, which is the network's or the authorization server's
 * (a JWKS or introspection answer), never the token's.
 */
function unreachable(code: string, msg: string, error: unknown): void {
  logFailure(code, msg, error, { level: 'warn', detail: error instanceof Error ? error.message : String(error) })
}
