import { toChatFailure } from '@/lib/http'
import { getSignIn } from '@/lib/server/sign-in-instance'

export const dynamic = 'force-dynamic'

/** `POST /auth/sign-out` (the sidebar's form): the session ends on every instance, then the signed-out page. */
export async function POST(request: Request): Promise<Response> {
  const configured = await getSignIn()
  if (!configured) return Response.redirect(new URL('/', request.url), 303)
  try {
    return await configured.signIn.signOut(request)
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse()
    throw error
  }
}
