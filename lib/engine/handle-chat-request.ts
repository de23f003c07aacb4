import { randomBytes } from 'node:crypto'
import type { ChatServer } from './chat-server'
import { createClientIdentity, type ClientIdentityResolver } from './client-identity'
import { isChatRequestError } from './errors'
import { readJsonBody } from './read-json-body'

let processIdentity: ClientIdentityResolver | undefined

/**
 * `POST /api/chat`: who is asking (signed cookie), what they sent (validated, refused with a 4xx
 * before streaming), then the turn as an NDJSON stream that stops when the request does.
 *
 * `identity` is the server's `createClientIdentity({ secret })`. Without it, identities are
 * signed with a secret made for this process only (enough for a test; a server must pass the
 * configured one, or cookies die with the process and no other instance accepts them).
 */
export async function handleChatRequest({
  request,
  chat,
  identity = (processIdentity ??= createClientIdentity({ secret: randomBytes(32).toString('base64url') })),
}: {
  request: Request
  chat: ChatServer
  identity?: ClientIdentityResolver
}): Promise<Response> {
  const client = identity.resolve(request)
  try {
    const body = await readJsonBody(request)
    const plan = await chat.prepare({ body, clientId: client.clientId })
    return new Response(chat.stream(plan, request.signal), {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', ...client.headers },
    })
  } catch (error) {
    if (isChatRequestError(error)) return error.toResponse(client.headers)
    throw error
  }
}
