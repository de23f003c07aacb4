import { describe, expect, it, vi } from 'vitest'
import { ChatHttpError, parseRetryAfter, postChat } from './chat-request'

describe('postChat', () => {
  it('posts the body as JSON, same-origin, with the signal', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('{"type":"complete","text":""}\n', { status: 200 }))
    const signal = new AbortController().signal
    const response = await postChat({ body: { messages: [] }, signal, fetch })
    expect(response.ok).toBe(true)
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/chat')
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', signal, body: '{"messages":[]}' })
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json')
  })

  it('turns { error: { code, message } } into a ChatHttpError', async () => {
    const fetch = async () =>
      Response.json({ error: { code: 'INVALID_REQUEST', message: 'messages: expected an array' } }, { status: 400 })
    const failure = postChat({ body: { messages: [] }, fetch })
    await expect(failure).rejects.toBeInstanceOf(ChatHttpError)
    await expect(failure).rejects.toMatchObject({ message: 'messages: expected an array', status: 400, code: 'INVALID_REQUEST' })
  })

  it('says what failed when the error body is not the contract', async () => {
    const fetch = async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })
    await expect(postChat({ body: { messages: [] }, fetch })).rejects.toThrow('The request failed (502 Bad Gateway).')
  })
})

describe('parseRetryAfter', () => {
  it('reads whole seconds, and nothing else', () => {
    expect(parseRetryAfter('2')).toBe(2)
    expect(parseRetryAfter(' 30 ')).toBe(30)
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('')).toBeUndefined()
    expect(parseRetryAfter('1.5')).toBeUndefined()
    expect(parseRetryAfter('-1')).toBeUndefined()
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined()
  })

  it('goes with the refusal', async () => {
    const fetch = async () =>
      Response.json(
        { error: { code: 'rate_limited', message: 'The server is busy.', scope: 'server' } },
        { status: 429, headers: { 'Retry-After': '3' } },
      )
    await expect(postChat({ body: { messages: [] }, fetch })).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 3 })
  })

  it('says when a spent model budget resets', async () => {
    const fetch = async () =>
      Response.json(
        { error: { code: 'budget_exhausted', message: 'You have used today’s model budget.', resetsAt: '2026-11-30T00:00:00.000Z' } },
        { status: 429, headers: { 'Retry-After': '600' } },
      )
    await expect(postChat({ body: { messages: [] }, fetch })).rejects.toMatchObject({ code: 'budget_exhausted', retryAfterSeconds: 600, resetsAt: '2026-11-30T00:00:00.000Z' })
  })
})
