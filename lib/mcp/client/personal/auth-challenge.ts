import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client'

/** What a server's `401` says about how a person gets access: where its protected resource metadata is (RFC 9728), and the scope it asks for. */
export interface AuthChallenge {
  resourceMetadataUrl?: URL
  scope?: string
}

/**
 * The challenge in a server's `401` (`WWW-Authenticate: Bearer resource_metadata="…"`), read with
 * the SDK's parser. Metadata on another origin than the server's is refused, as the MCP
 * specification's security section says: whoever answers at the server's URL must not send the
 * chat to an authorization server of someone else's choosing.
 */
export function challengeOf(response: Response, serverUrl: URL): AuthChallenge | { refused: string } {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response)
  if (resourceMetadataUrl && resourceMetadataUrl.origin !== serverUrl.origin) {
    return {
      refused: `it answered 401 naming its protected resource metadata at ${resourceMetadataUrl.origin}, another origin than its own (${serverUrl.origin}); the chat does not follow it`,
    }
  }
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) }
}
