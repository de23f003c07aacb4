import { Refusal, toChatFailure } from '@/lib/http'
import { getChatApp } from '@/lib/server/chat-server-instance'

export const dynamic = 'force-dynamic'

/** Live plugin sessions, for inspection while developing; hidden in production. */
export async function GET(request: Request): Promise<Response> {
  if (process.env.NODE_ENV === 'production' && process.env.EXPOSE_SESSIONS !== '1') {
    return new Refusal('not_found', 'Not found.').toResponse()
  }
  const { chat, identity } = await getChatApp()
  try {
    // With sign-in configured, an unsigned request is refused (401 sign_in_required).
    await identity.identify(request)
    return Response.json({ sessions: await chat.listActive() })
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse()
    throw error
  }
}
