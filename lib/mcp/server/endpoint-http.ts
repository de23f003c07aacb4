import { createHash, timingSafeEqual } from 'node:crypto'
import { DEFAULT_MAX_REQUEST_BODY_SIZE, isJsonContentType, readRequestBody } from '@modelcontextprotocol/server'

// The endpoint's HTTP plumbing: how it reads a body once, answers an error, compares a token.

/**
 * A JSON POST's body read once (the SDK's bounded reader, its 4 MiB bound) and parsed, for the
 * endpoint (batches, admission) to look at and the SDK to use as `parsedBody`. Anything else (no
 * body, another content type, JSON that does not parse) is handed on unparsed, as a request with
 * the same bytes, for the SDK to answer as it does.
 */
export async function readBody(request: Request): Promise<{ tooLarge: true } | { tooLarge: false; request: Request; parsedBody: unknown }> {
  if (request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type')) || request.body === null) {
    return { tooLarge: false, request, parsedBody: undefined }
  }
  const read = await readRequestBody(request)
  if (read.tooLarge) return { tooLarge: true }
  try {
    return { tooLarge: false, request, parsedBody: JSON.parse(read.text) as unknown }
  } catch {
    return { tooLarge: false, request: new Request(request.url, { method: 'POST', headers: request.headers, body: read.text, signal: request.signal }), parsedBody: undefined }
  }
}

/**
 * `response` marked `Cache-Control: no-transform`, which Next's gzip (and proxies) leave alone.
 * An MCP answer is a few KB, most of it a sealed `requestState` that does not compress, and
 * starting a gzip stream for each cost more CPU than the round's own work saved in bytes; an
 * SSE stream must not sit in a compressor's buffer either.
 */
export function uncompressed(response: Response): Response {
  const cacheControl = response.headers.get('cache-control')
  if (cacheControl?.includes('no-transform')) return response
  const headers = new Headers(response.headers)
  headers.set('cache-control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers })
}
