import { randomBytes } from 'node:crypto'
import { clientAddressOf } from './client-address'
import { createClientIdentity, type ClientIdentity, type ClientIdentityResolver } from './client-identity'
import type { Person } from './people-list'
import { ChatRequestError, toChatFailure } from './errors'
import type { Admission, Work } from './admission'
import type { InFlightLimiter } from './in-flight-limiter'
import type { RateDecision } from './rate-limiter'
import { readJsonBody } from './read-json-body'
import { noteTurnError, noteTurnFollowed } from './request-telemetry'
import { loggingContent } from './content-log'
import type { WatchedCall } from '../protocol/ended-call'

let processIdentity: ClientIdentityResolver | undefined

/**
 * What the edge hands a chat request to once it is admitted: the engine's `ChatServer` is one.
 * Declared here, not imported, so that the edge never imports the engine (lib/http/index.ts).
 */
export interface ChatTurns {
  /** Whether a body (not yet validated) continues `clientId`'s work in progress: what admission puts first. */
  workOf(body: unknown, clientId: string): Work
  /** Validate the body and stream its turn as NDJSON; a refusal rejects before any byte. */
  open(options: OpenTurnOptions): Promise<ReadableStream<Uint8Array>>
}

/** What a turn is opened with: the request's body, who asks, from where, and what to tell of its end. */
export interface OpenTurnOptions {
  body: unknown
  clientId: string
  person?: Person
  address?: string
  signal?: AbortSignal
  onEnd?: (errorCode?: string) => void
  /**
   * How the questions a kept chat's turn leaves waiting are followed on its response, when the
   * request asks (`follow`): the app's follow of a chat's waiting calls, as
   * `GET /api/chats/:id/waiting` answers it (undefined when it follows none now, e.g. too many
   * at once: the page then follows them by that request). Without it, `follow` changes nothing.
   */
  follow?: (calls: readonly WatchedCall[]) => Promise<ReadableStream<Uint8Array> | undefined>
}

/**
 * The app's follow of a client's waiting calls (`GET /api/chats/:id/waiting`'s), which a turn
 * of a kept chat that asks (`follow`) goes on with on its response once it has ended;
 * undefined when it may follow none now (too many followed at once).
 */
export type FollowCalls = (options: { owner: string; calls: readonly WatchedCall[]; signal: AbortSignal }) => Promise<ReadableStream<Uint8Array> | undefined>

/**
 * `POST /api/chat`: who is asking (signed cookie), what they sent (validated, refused with a 4xx
 * before streaming), then the turn as an NDJSON stream that stops when the request does.
 *
 * `identity` is the server's `createClientIdentity({ secret })`. Without it, identities are
 * signed with a secret made for this process only (enough for a test; a server must pass the
 * configured one, or cookies die with the process and no other instance accepts them).
 *
 * `admission` charges every request to its client address (see `clientAddressOf`) before the
 * body is read, and then to the server by what it is: an answer or a Stop of this client's work
 * in progress is never refused for other clients' load (`chat.workOf`), new work gets a fair
 * share (admission.ts). A refusal is a 429 with `Retry-After` and the refusal's `scope`.
 * `inFlight` bounds how many requests of one address are answered at once (until each
 * answer's turn has ended: a body that goes on following its questions, `follow`, is no longer
 * in flight).
 */
export async function handleChatRequest({
  request,
  chat,
  identity = (processIdentity ??= createClientIdentity({ secret: randomBytes(32).toString('base64url') })),
  admission,
  inFlight,
  follow,
}: {
  request: Request
  chat: ChatTurns
  identity?: ClientIdentityResolver
  admission?: Admission
  inFlight?: InFlightLimiter
  /** How a turn that asks goes on following its questions (without it, a turn's body ends with it). */
  follow?: FollowCalls
}): Promise<Response> {
  let client: ClientIdentity | undefined
  let release: (() => void) | undefined
  try {
    client = await identity.identify(request)
    const address = clientAddressOf(request)
    refuseOver(admission?.enter(address))
    if (inFlight) {
      release = inFlight.enter(address)
      if (!release) {
        throw new ChatRequestError('rate_limited', 'Too many requests from your address are still being answered. Wait for one to finish.', undefined, 1, 'address')
      }
    }
    let body: unknown
    try {
      body = await readJsonBody(request)
    } catch (error) {
      // A body that could not be read is new work too: it cost the reading.
      refuseOver(admission?.admit(address, 'new'))
      throw error
    }
    refuseOver(admission?.admit(address, chat.workOf(body, client.clientId)))
    const end = release
    const owner = client.clientId
    const stream = await chat.open({
      body,
      clientId: client.clientId,
      ...(client.person ? { person: client.person } : {}),
      address,
      signal: request.signal,
      onEnd: (errorCode) => {
        // A turn that ended with an `error` event: its code goes on the request's log line.
        if (errorCode) noteTurnError(request, errorCode)
        end?.()
      },
      ...(follow
        ? {
            follow: async (calls: readonly WatchedCall[]) => {
              const rest = await follow({ owner, calls, signal: request.signal })
              // Followed: the request's duration is the turn's, not the person's time to answer.
              if (rest) noteTurnFollowed(request)
              return rest
            },
          }
        : {}),
    })
    release = undefined
    return new Response(loggingContent(request, stream), {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', ...client.headers },
    })
  } catch (error) {
    const failure = toChatFailure(error)
    if (failure) return failure.toResponse(client?.headers)
    throw error
  } finally {
    // Refused before streaming: the request is over. (A stream releases when its body ends.)
    release?.()
  }
}

function refuseOver(decision: RateDecision | undefined): void {
  if (!decision || decision.allowed) return
  throw new ChatRequestError(
    'rate_limited',
    decision.scope === 'address'
      ? 'Too many requests from your address. Wait a moment, then try again.'
      : 'The server is taking too many requests right now. Wait a moment, then try again.',
    undefined,
    decision.retryAfterSeconds,
    decision.scope,
  )
}
