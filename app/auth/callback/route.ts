import { getSignIn } from '@/lib/server/sign-in-instance'

export const dynamic = 'force-dynamic'

/** `GET /auth/callback`: the redirect URI registered at the provider (`${APP_URL}/auth/callback`). */
export async function GET(request: Request): Promise<Response> {
  const configured = await getSignIn()
  if (!configured) return Response.redirect(new URL('/', request.url), 303)
  return configured.signIn.callback(request)
}
