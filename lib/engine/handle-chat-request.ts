import type { ChatServer } from './chat-server'
import { resolveClientIdentity } from './client-identity'
import { isChatRequestError } from './errors'
import { readJsonBody } from './read-json-body'

/**
 * `POST /api/chat`: who is asking (cookie), what they sent (validated, refused with a 4xx
 * before streaming), then the turn as an NDJSON stream that stops when the request does.
 */
export async function handleChatRequest({ request, chat }: { request: Request; chat: ChatServer }): Promise<Response> {
  const identity = resolveClientIdentity(request)
  try {
    const body = await readJsonBody(request)
    const plan = await chat.prepare({ body, clientId: identity.clientId })
    return new Response(chat.stream(plan, request.signal), {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', ...identity.headers },
    })
  } catch (error) {
    if (isChatRequestError(error)) return error.toResponse(identity.headers)
    throw error
  }
}
