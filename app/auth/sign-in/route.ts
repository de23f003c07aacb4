import { getSignIn } from '@/lib/server/sign-in-instance'

export const dynamic = 'force-dynamic'

/** `GET /auth/sign-in?next=/path`: to the provider's sign-in; back to `next` (a path of this app) after. */
export async function GET(request: Request): Promise<Response> {
  const configured = await getSignIn()
  if (!configured) return Response.redirect(new URL('/', request.url), 303)
  return configured.signIn.start(request)
}
