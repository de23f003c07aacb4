import { getChatApp } from '@/lib/server/chat-server-instance'
import { getSignIn } from '@/lib/server/sign-in-instance'

export const dynamic = 'force-dynamic'

/** `GET /auth/sign-in?next=/path`: to the provider's sign-in; back to `next` (a path of this app) after. */
export async function GET(request: Request): Promise<Response> {
  const [configured, { browserIdentity }] = await Promise.all([getSignIn(), getChatApp()])
  if (!configured) return Response.redirect(new URL('/', request.url), 303)
  // The browser's identity from before sign-in, if it has one: its chats move to the account.
  const browser = browserIdentity.resolve(request)
  const previousClientId = Object.keys(browser.headers).length === 0 ? browser.clientId : undefined
  return configured.signIn.start(request, { previousClientId })
}
