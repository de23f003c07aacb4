import { createHash } from 'node:crypto'
import type { AuthInfo } from '@modelcontextprotocol/server'
import { jsonRpcError, sameSecret } from './endpoint-http'
import type { ResourceAuth } from './resource-auth'

export interface BearerAuthOptions {
  /** `MCP_AUTH_TOKEN`: one static token, for a single machine client. */
  authToken?: string
  /** Sign-in is on and no way to authenticate is configured: every request refused with this message. */
  closedWithoutToken?: string
  /** `MCP_AUTH_ISSUER`: access tokens of this authorization server, for this resource. */
  resourceAuth?: ResourceAuth
}

/**
 * Who calls `/api/mcp`: the static token's principal (a hash of it), or the person an access
 * token names (`principalOf(iss, sub)`), as `AuthInfo.clientId`, which binds 2025 sessions,
 * 2026 `requestState`, calls and their answers. `undefined` when the endpoint is open; a
 * `Response` when the request is refused (401 with the challenge MCP's authorization section asks
 * for, 503 when the authorization server cannot be asked).
 */
export async function authenticate(request: Request, { authToken, closedWithoutToken, resourceAuth }: BearerAuthOptions): Promise<AuthInfo | undefined | Response> {
  if (authToken === undefined && resourceAuth === undefined) {
    return closedWithoutToken === undefined ? undefined : jsonRpcError(401, -32000, closedWithoutToken, { 'WWW-Authenticate': 'Bearer' })
  }
  const given = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim()
  if (given && authToken !== undefined && sameSecret(given, authToken)) return staticPrincipal(given)
  if (!resourceAuth) return jsonRpcError(401, -32000, 'Unauthorized: send Authorization: Bearer <MCP_AUTH_TOKEN>.', { 'WWW-Authenticate': 'Bearer' })
  if (!given) {
    return jsonRpcError(401, -32000, 'Unauthorized: send Authorization: Bearer <an access token for this resource>; its metadata names the authorization server.', {
      'WWW-Authenticate': challenge(resourceAuth, {}),
    })
  }
  const checked = await resourceAuth.verify(given)
  if (checked.ok) return checked.authInfo
  if (checked.status === 503) return jsonRpcError(503, -32000, checked.message, { 'Retry-After': '5' })
  return jsonRpcError(401, -32000, checked.message, { 'WWW-Authenticate': challenge(resourceAuth, { error: 'invalid_token', error_description: checked.message }) })
}

/** 403 `insufficient_scope` when `message` calls a tool whose scope the caller's token lacks (the static token has every scope). */
export function scopeRefusal(message: unknown, authInfo: AuthInfo | undefined, resourceAuth: ResourceAuth | undefined): Response | undefined {
  if (!resourceAuth || !authInfo || authInfo.resource === undefined) return undefined
  const needed = resourceAuth.scopeNeededFor(message)
  if (needed === undefined || authInfo.scopes.includes(needed)) return undefined
  const message_ = `Forbidden: this call needs the scope ${needed}, which the access token does not grant.`
  return jsonRpcError(403, -32000, message_, {
    'WWW-Authenticate': challenge(resourceAuth, { error: 'insufficient_scope', scope: [...new Set([...authInfo.scopes, needed])].join(' '), error_description: message_ }),
  })
}

function staticPrincipal(token: string): AuthInfo {
  return { token, clientId: createHash('sha256').update(token).digest('base64url').slice(0, 16), scopes: [] }
}

/** `Bearer error="…", scope="…", resource_metadata="…"` (RFC 6750, RFC 9728 §5.1). */
function challenge(resourceAuth: ResourceAuth, { error, scope, error_description }: { error?: string; scope?: string; error_description?: string }): string {
  const scopes = scope ?? (resourceAuth.metadata().scopes_supported as string[]).join(' ')
  const parameters: [string, string | undefined][] = [
    ['error', error],
    ['error_description', error_description],
    ['scope', scopes || undefined],
    ['resource_metadata', resourceAuth.resourceMetadataUrl],
  ]
  return `Bearer ${parameters
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, '')}"`)
    .join(', ')}`
}
