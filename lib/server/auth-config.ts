import { isEmptyList, parsePeopleList, type PeopleList } from '../http'
import { ConfigError, type Environment } from './config-error'

/** Sign-in as the environment configures it (docs/sign-in.md), or undefined: no sign-in, the browser's identity is the person. */
export interface AuthConfig {
  issuer: string
  clientId: string
  clientSecret: string
  /** `APP_URL`: the public origin (scheme, host, port), without a trailing slash. */
  appUrl: string
  /** The redirect URI to register at the provider: `${appUrl}/auth/callback`. */
  redirectUri: string
  allowed: PeopleList
  admins: PeopleList
  groupsClaim: string
  /** `AUTH_GUESTS=on`: people may chat without signing in, as their browser identity (docs/sign-in.md, "Guests"). */
  guests: boolean
}

const SIGN_IN_VARIABLES = ['AUTH_OIDC_ISSUER', 'AUTH_OIDC_CLIENT_ID', 'AUTH_OIDC_CLIENT_SECRET'] as const

/**
 * Reads sign-in from `env`. Nothing set: undefined, and nothing changes. Any of
 * `AUTH_OIDC_ISSUER`, `AUTH_OIDC_CLIENT_ID`, `AUTH_OIDC_CLIENT_SECRET` set: all three and
 * `APP_URL` must be, and `AUTH_ALLOWED_EMAILS` or `AUTH_ALLOWED_GROUPS` must name someone (an
 * empty allow-list would let in anyone the provider knows — every Google account, say).
 * Anything wrong is a `ConfigError` naming the variable.
 */
export function readAuthConfig(env: Environment): AuthConfig | undefined {
  const value = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined)
  const set = SIGN_IN_VARIABLES.filter((name) => value(name) !== undefined)
  if (set.length === 0) return undefined
  const missing = [...SIGN_IN_VARIABLES, 'APP_URL'].filter((name) => value(name) === undefined)
  if (missing.length > 0) throw new ConfigError(`Sign-in needs ${missing.join(', ')} too (${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set). See "Sign-in" in the README.`)
  const issuer = readUrl('AUTH_OIDC_ISSUER', value('AUTH_OIDC_ISSUER')!)
  const appUrl = readUrl('APP_URL', value('APP_URL')!)
  if (appUrl.pathname !== '/' || appUrl.search || appUrl.hash) throw new ConfigError(`APP_URL must be an origin only, such as https://chat.example.com (no path); got "${appUrl.href}".`)
  const list = (emails: string, groups: string) => {
    try {
      return parsePeopleList({ emails: value(emails), groups: value(groups) })
    } catch (error) {
      throw new ConfigError(`${emails}: ${(error as Error).message}.`)
    }
  }
  const allowed = list('AUTH_ALLOWED_EMAILS', 'AUTH_ALLOWED_GROUPS')
  if (isEmptyList(allowed)) {
    throw new ConfigError('Sign-in needs AUTH_ALLOWED_EMAILS (addresses, or @domain for a whole domain) or AUTH_ALLOWED_GROUPS: name who may enter.')
  }
  const origin = appUrl.origin
  return {
    // As given: the provider's metadata must name exactly this issuer (some end in a slash).
    issuer: value('AUTH_OIDC_ISSUER')!,
    clientId: value('AUTH_OIDC_CLIENT_ID')!,
    clientSecret: value('AUTH_OIDC_CLIENT_SECRET')!,
    appUrl: origin,
    redirectUri: `${origin}/auth/callback`,
    allowed,
    admins: list('AUTH_ADMIN_EMAILS', 'AUTH_ADMIN_GROUPS'),
    groupsClaim: value('AUTH_GROUPS_CLAIM') ?? 'groups',
    guests: readSwitch('AUTH_GUESTS', value('AUTH_GUESTS')),
  }
}

/** `on` or `off` (unset: off); anything else is a `ConfigError`, so a typo never opens the chat by accident. */
function readSwitch(name: string, text: string | undefined): boolean {
  if (text === undefined || text.toLowerCase() === 'off') return false
  if (text.toLowerCase() === 'on') return true
  throw new ConfigError(`${name} must be "on" or "off" (unset: off); got "${text}".`)
}

function readUrl(name: string, text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL; got "${text}".`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be an http:// or https:// URL; got "${text}".`)
  return url
}
