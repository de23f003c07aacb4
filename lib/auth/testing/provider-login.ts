import type { SignIn } from '../sign-in'

/**
 * Signs `login` in at the test provider by plain HTTP, as a browser would (its login form, then
 * its consent form, following its redirects with its cookies), from the authorization URL the
 * app sent the browser to. Resolves with the URL the provider sends the browser back to (the
 * app's callback, with `code` and `state`), without requesting it.
 */
export async function loginAtProvider(authorizationUrl: string, login: string, { redirectUriPrefix }: { redirectUriPrefix: string }): Promise<URL> {
  const jar = new Map<string, string>()
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1))
    }
  }
  let url = new URL(authorizationUrl)
  let form: Record<string, string> | undefined
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
    })
    keep(response)
    form = undefined
    const location = response.headers.get('location')
    if (location) {
      const next = new URL(location, url)
      if (next.href.startsWith(redirectUriPrefix)) return next
      url = next
      continue
    }
    const html = await response.text()
    if (!response.ok) throw new Error(`The provider answered ${response.status}: ${html.slice(0, 500)}`)
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1]
    if (!action || !prompt) throw new Error(`No form on the provider's page: ${html.slice(0, 500)}`)
    url = new URL(action.replace(/&amp;/g, '&'), url)
    form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }
  }
  throw new Error('The provider kept redirecting')
}

/** A sign-in made over HTTP as a browser makes it, and what it left. */
export interface SignedInOverHttp {
  /** The callback's answer: where it sends the browser. */
  location: string
  /** `chat_session=<value>`, when the callback made a session. */
  session?: string
  /** The callback requested again, with the same URL and the browser's sign-in cookie (a replay). */
  replay(): Promise<Response>
}

/**
 * Signs `login` in to the app at `appUrl` over plain HTTP, as a browser does: the app's
 * `/auth/sign-in?next=`, the provider's own pages (`loginAtProvider`), then the app's callback
 * with the browser's cookies (its sign-in cookie, and `cookie` if given, e.g. a browser identity).
 * `beforeCallback` runs once the provider has sent the browser back, before the app hears of it.
 */
export async function signInOverHttp(
  appUrl: string,
  login: string,
  { next = '/', cookie, beforeCallback }: { next?: string; cookie?: string; beforeCallback?: () => Promise<void> } = {},
): Promise<SignedInOverHttp> {
  const started = await fetch(`${appUrl}/auth/sign-in?next=${encodeURIComponent(next)}`, { redirect: 'manual' })
  const flow = started.headers.getSetCookie().find((line) => line.startsWith('chat_sign_in='))?.split(';')[0]
  if (started.status !== 303 || !flow) throw new Error(`GET /auth/sign-in: HTTP ${started.status}, to ${started.headers.get('location')}`)
  const callback = await loginAtProvider(started.headers.get('location')!, login, { redirectUriPrefix: `${appUrl}/auth/callback` })
  const request = () => fetch(callback, { redirect: 'manual', headers: { cookie: [flow, ...(cookie ? [cookie] : [])].join('; ') } })
  await beforeCallback?.()
  const finished = await request()
  const session = finished.headers.getSetCookie().find((line) => line.startsWith('chat_session='))?.split(';')[0]
  return { location: finished.headers.get('location') ?? '', session, replay: request }
}

/** The `Set-Cookie` line of cookie `name` in `response`, if it sets one. */
export const cookieOf = (response: Response, name: string) => response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
/** A `Set-Cookie` line's `name=value`, as the browser sends it back. */
export const valueOf = (line: string | undefined) => line!.split(';')[0]!
export const withCookie = (url: string, cookie: string, init: RequestInit = {}) => new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } })

/**
 * Signs `login` in to the app at `app` through the provider's own pages, as a browser does:
 * `signIn.start`, the provider's forms, then `signIn.callback`. The callback's response, a
 * request to send it again, and the session cookie it set (`chat_session=…`), if any.
 */
export async function signInThroughProvider(
  signIn: Pick<SignIn, 'start' | 'callback'>,
  { app, login, next = '/c/chat-1', browserCookie }: { app: string; login: string; next?: string; browserCookie?: string },
) {
  const started = await signIn.start(new Request(`${app}/auth/sign-in?next=${encodeURIComponent(next)}`))
  if (started.status !== 303) throw new Error(`The sign-in did not start: ${started.status}`)
  const flowCookie = [valueOf(cookieOf(started, 'chat_sign_in')), ...(browserCookie ? [browserCookie] : [])].join('; ')
  const callbackUrl = await loginAtProvider(started.headers.get('location')!, login, { redirectUriPrefix: `${app}/auth/callback` })
  const callbackRequest = () => withCookie(callbackUrl.href, flowCookie)
  const response = await signIn.callback(callbackRequest())
  const session = cookieOf(response, 'chat_session')
  return { response, callbackRequest, session: session && valueOf(session) }
}
