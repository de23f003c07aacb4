import { randomBytes } from 'node:crypto'
import type { ChatServer } from './chat-server'
import { clientAddressOf } from './client-address'
import { createClientIdentity, type ClientIdentityResolver } from './client-identity'
import { ChatRequestError, isChatRequestError } from './errors'
import type { InFlightLimiter } from './in-flight-limiter'
import type { RateLimiter } from './rate-limiter'
import { readJsonBody } from './read-json-body'

let processIdentity: ClientIdentityResolver | undefined

/**
 * `POST /api/chat`: who is asking (signed cookie), what they sent (validated, refused with a 4xx
 * before streaming), then the turn as an NDJSON stream that stops when the request does.
 *
 * `identity` is the server's `createClientIdentity({ secret })`. Without it, identities are
 * signed with a secret made for this process only (enough for a test; a server must pass the
 * configured one, or cookies die with the process and no other instance accepts them).
 *
 * `rateLimiter` counts requests per client address (see `clientAddressOf`) before the body is
 * read: one over the rate gets a 429 with `Retry-After`. `inFlight` bounds how many requests of
 * one address are answered at once (until each answer's body has ended).
 */
export async function handleChatRequest({
  request,
  chat,
  identity = (processIdentity ??= createClientIdentity({ secret: randomBytes(32).toString('base64url') })),
  rateLimiter,
  inFlight,
}: {
  request: Request
  chat: ChatServer
  identity?: ClientIdentityResolver
  rateLimiter?: RateLimiter
  inFlight?: InFlightLimiter
}): Promise<Response> {
  const client = identity.resolve(request)
  let release: (() => void) | undefined
  try {
    const address = clientAddressOf(request)
    const rate = rateLimiter?.take(address)
    if (rate && !rate.allowed) {
      throw new ChatRequestError(
        'rate_limited',
        rate.scope === 'address'
          ? 'Too many requests from your address. Wait a moment, then try again.'
          : 'The server is taking too many requests right now. Wait a moment, then try again.',
        undefined,
        rate.retryAfterSeconds,
      )
    }
    if (inFlight) {
      release = inFlight.enter(address)
      if (!release) {
        throw new ChatRequestError('rate_limited', 'Too many requests from your address are still being answered. Wait for one to finish.', undefined, 1)
      }
    }
    const body = await readJsonBody(request)
    const stream = await chat.open({ body, clientId: client.clientId, address, signal: request.signal, onEnd: release })
    release = undefined
    return new Response(stream, {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', ...client.headers },
    })
  } catch (error) {
    if (isChatRequestError(error)) return error.toResponse(client.headers)
    throw error
  } finally {
    // Refused before streaming: the request is over. (A stream releases when its body ends.)
    release?.()
  }
}
