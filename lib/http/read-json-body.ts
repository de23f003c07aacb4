import { ChatRequestError } from './errors'

export const MAX_BODY_BYTES = 2 * 1024 * 1024

/** The request's JSON body, refusing other media types, oversized bodies and broken JSON. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/json\b/i.test(type)) {
    throw new ChatRequestError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.')
  }
  if (!request.body) throw new ChatRequestError('invalid_json', 'The request has no body.')
  const text = await readBodyText(request, limit)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ChatRequestError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`)
  }
}

/** The request's body as text, refusing one larger than `limit` bytes (declared or sent) before reading the rest. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > limit) throw tooLarge(limit)
  const reader = request.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function tooLarge(limit: number) {
  return new ChatRequestError('body_too_large', limit >= 1024 * 1024 ? `The body is larger than ${limit / 1024 / 1024} MiB.` : `The body is larger than ${limit} bytes.`)
}
