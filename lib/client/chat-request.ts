import type { ChatRequest } from '../protocol/request-schema'

/** A request to `/api/chat` that was refused before any event: the user-safe message to show. */
export class ChatHttpError extends Error {
  override name = 'ChatHttpError'
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** From `Retry-After` (whole seconds): when the server would take the request again. */
    readonly retryAfterSeconds?: number,
    /** A `budget_exhausted` refusal's `resetsAt` (ISO time): when today's model budget starts again. */
    readonly resetsAt?: string,
  ) {
    super(message)
  }
}

/**
 * POST one request of the chat contract and return the response once it is a 200 with a body.
 * Same-origin, so the identity cookie goes along by itself.
 *
 * @example
 * const response = await postChat({ body: { messages }, signal })
 * for await (const event of readNdjson(response.body)) ...
 */
export async function postChat({
  body,
  signal,
  endpoint = '/api/chat',
  fetch = globalThis.fetch,
}: {
  body: ChatRequest
  signal?: AbortSignal
  endpoint?: string
  fetch?: typeof globalThis.fetch
}): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  })
  if (!response.ok) throw await toRequestError(response)
  if (!response.body) throw new ChatHttpError('The server sent an empty answer.', response.status)
  return response as Response & { body: ReadableStream<Uint8Array> }
}

/** Read `{ error: { code, message } }` and `Retry-After` from a refused request, whatever else it holds. */
export async function toRequestError(response: Response): Promise<ChatHttpError> {
  const fallback = `The request failed (${response.status}${response.statusText ? ` ${response.statusText}` : ''}).`
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'))
  let payload: unknown
  try {
    payload = await response.json()
  } catch {
    return new ChatHttpError(fallback, response.status, undefined, retryAfterSeconds)
  }
  const error = typeof payload === 'object' && payload !== null ? (payload as { error?: unknown }).error : undefined
  if (typeof error === 'object' && error !== null) {
    const { message, code, resetsAt } = error as { message?: unknown; code?: unknown; resetsAt?: unknown }
    if (typeof message === 'string' && message.trim() !== '') {
      const budget = code === 'budget_exhausted' && typeof resetsAt === 'string' && !Number.isNaN(Date.parse(resetsAt)) ? resetsAt : undefined
      return new ChatHttpError(message, response.status, typeof code === 'string' ? code : undefined, retryAfterSeconds, budget)
    }
  }
  return new ChatHttpError(fallback, response.status, undefined, retryAfterSeconds)
}

/**
 * `Retry-After` in whole seconds, as this server sends it; `undefined` when it is missing or
 * is anything else (an HTTP date included), so that nothing is retried on a guess.
 */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\s*\d{1,9}\s*$/.test(value)) return undefined
  return Number(value)
}
