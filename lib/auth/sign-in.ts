import { randomBytes } from 'node:crypto'
import * as oidc from 'openid-client'
import type { Operation } from 'effection'
import { ChatRequestError, names, noteIdentity, readBodyText, type ClientIdentityResolver, type PeopleList } from '../http'
import { logFailure } from '../http/failure-log'
import { accountIdOf, guestOf, type Account } from './account'
import { createAuthCookies } from './auth-cookies'
import type { AuthSession, AuthStore } from './auth-store'
import { isProviderError, type IdentityProvider, type ProviderClaims, type ProviderError } from './identity-provider'
import { safeNextPath } from './safe-next'
import { KEEP_CONNECTIONS_FIELD } from './sign-out-form'
import { createSigner } from './signed-value'

/** Who may sign in, who is an admin, and for how long; checked at start (lib/server/auth-config.ts). */
export interface SignInPolicy {
  /** `APP_URL`: the public origin, without a trailing slash. */
  appUrl: string
  /** `AUTH_ALLOWED_EMAILS` / `AUTH_ALLOWED_GROUPS`. */
  allowed: PeopleList
  /** `AUTH_ADMIN_EMAILS` / `AUTH_ADMIN_GROUPS`. */
  admins: PeopleList
  /** How long a session lasts at most. */
  sessionMaxAgeMs: number
  /** How old a session's last check may be before a request asks the provider again (60 s). */
  recheckAfterMs: number
}

/** The redirect URI to register at the provider. */
export const CALLBACK_PATH = '/auth/callback'
export const SIGN_IN_PATH = '/auth/sign-in'
/** The pages a person meets outside the app (`/auth/...`), open without a session. */
export const AUTH_PAGES = { notAllowed: '/auth/not-allowed', signedOut: '/auth/signed-out', problem: '/auth/problem' } as const
/** Why a sign-in could not finish, as `/auth/problem?reason=` says it (never the provider's own words). */
export type SignInProblem = 'unreachable' | 'failed' | 'expired'

/** The sign-out form is one box: a larger body is no form of ours. */
const SIGN_OUT_BODY_BYTES = 1024

const FLOW_MS = 10 * 60 * 1000
const SESSION_ID_BYTES = 24

export interface SignIn {
  /** `GET /auth/sign-in?next=/path`: to the provider, with a new state, nonce and PKCE verifier. */
  start(request: Request): Promise<Response>
  /** `GET /auth/callback`: the provider's answer checked, the session made, back to where the person was. */
  callback(request: Request): Promise<Response>
  /**
   * `POST /auth/sign-out`: what the account keeps for its connections (`forget`) forgotten unless
   * the form's `keepConnections` box is ticked, the session ended in the store (so on every
   * instance), the cookie cleared.
   */
  signOut(request: Request): Promise<Response>
  /** The signed-in account of the request, checked against the store, the allow-list and (once a minute) the provider. */
  account(request: Request): Promise<Account | undefined>
  /** `account`, or the 401 `sign_in_required` every API answers an unsigned request. */
  requireAccount(request: Request): Promise<Account>
  /** The address the not-allowed page names (from its signed cookie). */
  refusedEmail(request: Request): string | undefined
  /** Where a page sends an unsigned visitor: the sign-in, with the way back. */
  signInUrl(next: string): string
  /** `AUTH_GUESTS=on`: people may chat without signing in, as their browser identity. */
  readonly guests: boolean
  /**
   * Who is asking, as a rule about what they may use needs it: the signed-in account; with
   * guests, a guest (`isGuest`, their browser identity's id) when the request carries a valid
   * browser identity and no session; else undefined.
   */
  person(request: Request): Promise<Account | undefined>
}

/**
 * Sign-in with an OpenID Provider, kept in the app's store. One session is one store record,
 * named by a signed cookie `<sessionId>.<accountId>`; every request reads the record (a point
 * read, embedded; one GET, Redis), so a sign-out on any instance holds on all at once. A session
 * whose last check is older than `recheckAfterMs` is checked again by the request that finds it
 * so — one request of all instances claims the check in the store — against the provider (its
 * refresh token, else userinfo) and the allow-list of this process: a person removed from either
 * loses access within that time. A provider that cannot be reached is not a "no": the people
 * signed in keep working, and the next request after another interval asks again.
 */
export function createSignIn({
  policy,
  provider,
  store,
  run,
  secret,
  browser,
  guests = false,
  adopt,
  forget,
  now = Date.now,
}: {
  policy: SignInPolicy
  provider: IdentityProvider
  store: AuthStore
  run<T>(operation: () => Operation<T>): Promise<T>
  secret: string
  /** The browser identity (lib/http): a guest's identity, and whose work moves to the account at sign-in. */
  browser?: ClientIdentityResolver
  /** `AUTH_GUESTS=on` (needs `browser`). */
  guests?: boolean
  /**
   * Moves the work of the browser identity `from` (chats, waiting tool sessions) to the account
   * `to`; called by the callback when the browser signing in carries a valid browser identity.
   * Must be idempotent: two sign-ins of one browser may both call it.
   */
  adopt?: (from: string, to: string) => Promise<void>
  /**
   * Forgets what the account keeps for its connections to other services (its MCP servers'
   * tokens and values, revoked where the server can); called by sign-out unless the person ticked
   * `keepConnections`, before the session ends, so a failure leaves them signed in to try again.
   */
  forget?: (accountId: string) => Promise<void>
  now?: () => number
}): SignIn {
  if (guests && !browser) throw new TypeError('createSignIn: guests need the browser identity')
  const cookies = createAuthCookies({ signer: createSigner(secret), secure: policy.appUrl.startsWith('https:') })
  const redirect = (path: string, setCookies: string[] = []) => {
    const headers = new Headers({ Location: `${policy.appUrl}${path}`, 'Cache-Control': 'no-store' })
    for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
    return new Response(null, { status: 303, headers })
  }
  const problem = (reason: SignInProblem, setCookies: string[] = []) => redirect(`${AUTH_PAGES.problem}?reason=${reason}`, setCookies)

  function accountOf(claims: ProviderClaims): Account | undefined {
    const person = { email: claims.email, emailVerified: claims.emailVerified, groups: claims.groups }
    if (!names(policy.allowed, person)) return undefined
    return { id: accountIdOf(provider.issuer, claims.subject), email: claims.email, emailVerified: claims.emailVerified, name: claims.name, groups: claims.groups, isAdmin: names(policy.admins, person), isGuest: false }
  }

  function sessionOf(request: Request): { id: string; accountId: string } | undefined {
    const value = cookies.read(request, 'session')
    const dot = value?.indexOf('.') ?? -1
    return value && dot > 0 ? { id: value.slice(0, dot), accountId: value.slice(dot + 1) } : undefined
  }

  /** The session checked again with the provider and the allow-list; undefined when either says no. */
  async function recheck(session: AuthSession): Promise<AuthSession | undefined> {
    try {
      const grant = await provider.recheck(session)
      const account = grant.claims ? accountOf(grant.claims) : accountOf({ subject: session.subject, email: session.account.email, emailVerified: session.account.emailVerified !== false, name: session.account.name, groups: session.account.groups })
      if (!account) return undefined
      return { ...session, account, refreshToken: grant.refreshToken ?? session.refreshToken, accessToken: grant.accessToken ?? session.accessToken, checkedAt: now() }
    } catch (error) {
      if (isProviderError(error) && error.failure === 'unreachable') {
        logProviderFailure(error, 'a session could not be checked again; it is kept and checked again later')
        return session
      }
      if (isProviderError(error)) logProviderFailure(error, 'a session checked again was refused; it is ended')
      else logFailure('sign_in_recheck_failed', 'checking a session again failed; it is ended', error)
      return undefined
    }
  }

  /**
   * The browser's work from before this sign-in (sign-in off then, or a guest) moves to the
   * account: its chats show in the sidebar after the redirect, and a tool waiting there can be
   * answered. A browser without a valid identity cookie has none. A failure is logged and the
   * sign-in goes on: the work stays with the browser identity, and the next sign-in moves it.
   */
  async function adoptBrowserWork(request: Request, accountId: string): Promise<void> {
    if (!browser || !adopt) return
    const found = browser.resolve(request)
    // A fresh identity (a Set-Cookie to send) means the browser had none: nothing to move.
    if (Object.keys(found.headers).length > 0 || found.clientId === accountId) return
    try {
      await adopt(found.clientId, accountId)
    } catch (error) {
      logFailure('sign_in_adopt_failed', 'the browser’s chats could not be moved to the account; they move at its next sign-in', error, { level: 'warn' })
    }
  }

  /** The request's account (`SignIn.account`), noted for its log line: the account hashed is its `identity`. */
  async function account(request: Request): Promise<Account | undefined> {
    const found = await sessionAccount(request)
    if (found) noteIdentity(request, found.id)
    return found
  }

  async function sessionAccount(request: Request): Promise<Account | undefined> {
    const named = sessionOf(request)
    if (!named) return undefined
    const at = now()
    const session = await run(() => store.getSession(named.id, at))
    if (!session || session.account.id !== named.accountId) return undefined
    // The allow-list of this process, at once: a person taken off it is out with the next request.
    if (!names(policy.allowed, { email: session.account.email, emailVerified: true, groups: session.account.groups })) {
      await run(() => store.endSession(session.id))
      return undefined
    }
    if (at - session.checkedAt < policy.recheckAfterMs) return session.account
    if (!(await run(() => store.claimCheck(session.id, session.checkedAt, at)))) return session.account
    const checked = await recheck(session)
    if (!checked) {
      await run(() => store.endSession(session.id))
      return undefined
    }
    if (checked !== session) await run(() => store.putSession(checked))
    return checked.account
  }

  return {
    async start(request) {
      const next = safeNextPath(new URL(request.url).searchParams.get('next'))
      const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), next, expiresAt: now() + FLOW_MS }
      let location: URL
      try {
        location = await provider.authorizationUrl({ redirectUri: `${policy.appUrl}${CALLBACK_PATH}`, ...flow })
      } catch (error) {
        if (!isProviderError(error)) throw error
        logProviderFailure(error, 'a sign-in could not start')
        return problem('unreachable')
      }
      await run(() => store.putFlow(flow))
      const headers = new Headers({ Location: location.href, 'Cache-Control': 'no-store' })
      headers.append('Set-Cookie', cookies.set('signIn', flow.state, FLOW_MS / 1000))
      return new Response(null, { status: 303, headers })
    },

    async callback(request) {
      const params = new URL(request.url).searchParams
      const state = params.get('state') ?? ''
      const clearFlow = cookies.clear('signIn')
      // The state must be the one this browser started with, and is taken once: a replayed callback finds nothing.
      if (!state || cookies.read(request, 'signIn') !== state) return problem('expired', [clearFlow])
      const flow = await run(() => store.takeFlow(state, now()))
      if (!flow) return problem('expired', [clearFlow])
      // Where the provider sent the browser back to, as the provider saw it: under APP_URL, whatever the proxy in front rewrote.
      const callbackUrl = new URL(`${policy.appUrl}${CALLBACK_PATH}${new URL(request.url).search}`)
      let claims: ProviderClaims
      let tokens: { refreshToken?: string; accessToken?: string }
      try {
        const grant = await provider.exchange(callbackUrl, flow)
        claims = grant.claims
        tokens = grant
      } catch (error) {
        if (!isProviderError(error)) throw error
        logProviderFailure(error, 'a sign-in could not be completed')
        return problem(error.failure === 'unreachable' ? 'unreachable' : 'failed', [clearFlow])
      }
      const account = accountOf(claims)
      if (!account) return redirect(AUTH_PAGES.notAllowed, [clearFlow, cookies.set('refused', Buffer.from(claims.email || claims.name).toString('base64url'), 300)])
      const at = now()
      const session: AuthSession = { id: randomBytes(SESSION_ID_BYTES).toString('base64url'), account, subject: claims.subject, ...tokens, createdAt: at, checkedAt: at, expiresAt: at + policy.sessionMaxAgeMs }
      await run(() => store.putSession(session))
      await adoptBrowserWork(request, account.id)
      return redirect(flow.next, [clearFlow, cookies.set('session', `${session.id}.${account.id}`, Math.floor(policy.sessionMaxAgeMs / 1000))])
    },

    async signOut(request) {
      // A form post of this app's own page only: another site cannot sign a person out.
      const site = request.headers.get('sec-fetch-site')
      const origin = request.headers.get('origin')
      if ((site !== null && site !== 'same-origin') || (origin !== null && origin !== policy.appUrl)) {
        throw new ChatRequestError('invalid_request', 'Sign out from the chat itself.')
      }
      const named = sessionOf(request)
      if (named) {
        // Only a session that is still on says whose connections to forget: an old cookie forgets nothing.
        const session = forget ? await run(() => store.getSession(named.id, now())) : undefined
        if (session && session.account.id === named.accountId && !(await keepsConnections(request))) await forget!(named.accountId)
        await run(() => store.endSession(named.id))
      }
      return redirect(AUTH_PAGES.signedOut, [cookies.clear('session')])
    },

    account,
    async requireAccount(request) {
      const found = await account(request)
      if (!found) throw new ChatRequestError('sign_in_required', 'Sign in to use this chat.')
      return found
    },
    refusedEmail(request) {
      const value = cookies.read(request, 'refused')
      return value === undefined ? undefined : Buffer.from(value, 'base64url').toString('utf8')
    },
    signInUrl: (next) => `${policy.appUrl}${SIGN_IN_PATH}?next=${encodeURIComponent(safeNextPath(next))}`,
    guests,
    async person(request) {
      const signedIn = await account(request)
      if (signedIn || !guests) return signedIn
      const found = browser!.resolve(request)
      return Object.keys(found.headers).length > 0 ? undefined : guestOf(found.clientId)
    },
  }
}

/** Whether the sign-out form's "keep my connected MCP servers" box was ticked; a body that is no such form says no. */
async function keepsConnections(request: Request): Promise<boolean> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) return false
  return new URLSearchParams(await readBodyText(request, SIGN_OUT_BODY_BYTES)).get(KEEP_CONNECTIONS_FIELD) === 'on'
}

/**
 * A failure of the provider, at `warn` (`sign_in_provider_unreachable`, `…_refused`, `…_invalid`):
 * an unreachable provider's description is ours (the network's error) and always on the line; a
 * refusal's or an invalid answer's may quote a claim of the person's, so only with `LOG_CONTENT=1`.
 */
function logProviderFailure(error: ProviderError, msg: string): void {
  logFailure(`sign_in_provider_${error.failure}`, msg, error, { level: 'warn', detail: error.failure === 'unreachable' ? error.message : undefined })
}
