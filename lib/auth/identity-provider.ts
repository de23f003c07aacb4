import * as oidc from 'openid-client'

/** What the provider says of a person: from the ID token, or from userinfo on a check. */
export interface ProviderClaims {
  subject: string
  email: string
  /** `email_verified`; a provider that does not say counts as verified (Keycloak and Google say). */
  emailVerified: boolean
  name: string
  groups: string[]
}

/** What a code or a refresh token was exchanged for. */
export interface ProviderGrant {
  /** The claims, when the provider sent an ID token (always for a code; often for a refresh). */
  claims?: ProviderClaims
  refreshToken?: string
  accessToken?: string
}

/** Why the provider could not be asked: it could not be reached, or it answered what cannot be trusted. */
export type ProviderFailure = 'unreachable' | 'refused' | 'invalid'

/** An OpenID Provider, as the sign-in uses it: authorization code with PKCE, `state` and `nonce`, refresh, userinfo. */
export interface IdentityProvider {
  readonly issuer: string
  authorizationUrl(options: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<URL>
  /** The code in `callbackUrl` exchanged, its ID token checked (signature, issuer, audience, expiry, nonce). */
  exchange(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderGrant & { claims: ProviderClaims }>
  /** Asks the provider again whether the person is still theirs: a refresh token grant, else userinfo with the access token. */
  recheck(tokens: { subject: string; refreshToken?: string; accessToken?: string }): Promise<ProviderGrant>
}

const PROVIDER_FAILURE = Symbol.for('chat-app.ProviderError')

/** A provider call that failed, and how (`failure`); its message is for the operator's log, never the browser. */
export class ProviderError extends Error {
  override name = 'ProviderError'
  readonly [PROVIDER_FAILURE] = true
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    options?: { cause: unknown },
  ) {
    super(message, options)
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return typeof error === 'object' && error !== null && PROVIDER_FAILURE in error
}

/** What went wrong with a call to the provider, sorted: no answer; an OAuth error answer (`invalid_grant`: the person is no longer theirs); anything else is an answer not to trust. */
function sorted(error: unknown, doing: string): ProviderError {
  if (isProviderError(error)) return error
  const name = error instanceof Error ? error.name : ''
  const reason = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error)
  if (error instanceof TypeError || name === 'TimeoutError' || name === 'AbortError') return new ProviderError('unreachable', `${doing}: the provider cannot be reached (${reason})`, { cause: error })
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.WWWAuthenticateChallengeError) return new ProviderError('refused', `${doing}: the provider refused (${reason})`, { cause: error })
  return new ProviderError('invalid', `${doing}: ${reason}`, { cause: error })
}

/** Seconds a request to the provider may take before it counts as unreachable. */
const TIMEOUT_SECONDS = 10

/**
 * The provider at `issuer`, through openid-client (a certified relying party): its metadata is
 * discovered on first use, and again after a failure, so that a provider unreachable when the
 * server starts is found once it is back. Plain-http issuers are allowed only on loopback (tests,
 * a provider on the same machine); anything else must be HTTPS.
 */
export function createIdentityProvider({
  issuer,
  clientId,
  clientSecret,
  groupsClaim,
  scope = 'openid email profile',
  fetch: customFetch,
}: {
  issuer: string
  clientId: string
  clientSecret: string
  groupsClaim: string
  scope?: string
  /** What requests the provider: the platform's fetch unless given (the tests give a network that tampers with answers). */
  fetch?: oidc.CustomFetch
}): IdentityProvider {
  let discovered: Promise<oidc.Configuration> | undefined
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= (async () => {
      const url = new URL(issuer)
      const loopback = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
      const found = await oidc.discovery(url, clientId, { client_secret: clientSecret }, oidc.ClientSecretPost(clientSecret), {
        timeout: TIMEOUT_SECONDS,
        // The ID token's signature is checked against the provider's keys too: openid-client leaves
        // it to TLS by default, and a token that reached us some other way must not pass.
        execute: [oidc.enableNonRepudiationChecks, ...(loopback ? [oidc.allowInsecureRequests] : [])],
        ...(customFetch ? { [oidc.customFetch]: customFetch } : {}),
      })
      found.timeout = TIMEOUT_SECONDS
      if (customFetch) found[oidc.customFetch] = customFetch
      return found
    })().catch((error: unknown) => {
      discovered = undefined
      throw sorted(error, `Discovering ${issuer}`)
    })
    return discovered
  }

  function claimsOf(claims: Record<string, unknown>): ProviderClaims {
    const groups = claims[groupsClaim]
    return {
      subject: String(claims.sub),
      email: typeof claims.email === 'string' ? claims.email.toLowerCase() : '',
      emailVerified: claims.email_verified !== false && claims.email_verified !== 'false',
      name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : typeof claims.email === 'string' ? claims.email : String(claims.sub),
      groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : typeof groups === 'string' ? [groups] : [],
    }
  }

  return {
    issuer,
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      const config = await configuration()
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      })
    },
    async exchange(callbackUrl, { state, nonce, codeVerifier }) {
      const config = await configuration()
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { expectedState: state, expectedNonce: nonce, pkceCodeVerifier: codeVerifier, idTokenExpected: true })
        const claims = tokens.claims()
        if (!claims) throw new ProviderError('invalid', 'The provider sent no ID token')
        return { claims: claimsOf(claims), refreshToken: tokens.refresh_token, accessToken: tokens.access_token }
      } catch (error) {
        throw sorted(error, 'Signing in')
      }
    },
    async recheck({ subject, refreshToken, accessToken }) {
      const config = await configuration()
      try {
        if (refreshToken) {
          const tokens = await oidc.refreshTokenGrant(config, refreshToken)
          const claims = tokens.claims()
          if (claims && claims.sub !== subject) throw new ProviderError('invalid', 'The refreshed ID token names another subject')
          return { claims: claims ? claimsOf(claims) : undefined, refreshToken: tokens.refresh_token ?? refreshToken, accessToken: tokens.access_token }
        }
        if (!accessToken) throw new ProviderError('refused', 'The session has no token to check it with')
        return { claims: claimsOf(await oidc.fetchUserInfo(config, accessToken, subject)), accessToken }
      } catch (error) {
        throw sorted(error, 'Checking a session')
      }
    },
  }
}
