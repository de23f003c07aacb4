/**
 * The `_meta` key that names which of the chat's calls a message belongs to: the chat puts it
 * on each `tools/call` it sends, and `relatedCallsFetch` puts it on every server request and
 * notification that arrives within that call.
 */
export const RELATED_CALL = 'io.github.elicit-chat/call'

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>

/**
 * A `fetch` for the SDK's Streamable HTTP transport that says which call each server message
 * belongs to. Over Streamable HTTP a server sends the requests and notifications that belong to
 * a call (its questions, sampling requests, logs) on the response stream of that call's POST,
 * and nothing else does; but the SDK's client hands them to the app's handlers without saying
 * which stream they came on. So this reads the call's id off the POSTed `tools/call`
 * (`params._meta[RELATED_CALL]`) and writes it into each message its response stream carries;
 * on any other stream (the server's own GET stream) the key is removed, whatever the server
 * put there, so a message names a call only when the wire says it belongs to it.
 *
 * A call's stream that breaks before its result is resumed by the SDK with a GET naming the
 * last event it saw (`Last-Event-ID`); that stream is the same call's, and is tagged as such.
 */
export function relatedCallsFetch(base: Fetch = fetch): Fetch {
  /** Calls whose stream may be resumed, by the id of the last event seen on it. */
  const resumable = new Map<string, string>()
  return async (url, init) => {
    const lastEventId = new Headers(init?.headers).get('last-event-id')
    const call = callOf(init) ?? (lastEventId ? resumable.get(lastEventId) : undefined)
    if (lastEventId) resumable.delete(lastEventId)
    const response = await base(url, init)
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
    if (type !== 'text/event-stream' || !response.body) return response
    const tagged = response.body.pipeThrough(
      tagEvents({
        call,
        onEvent(id, answered) {
          if (!call) return
          // Once its result has come, the stream is not resumed: nothing to remember.
          for (const [event, owner] of resumable) if (owner === call) resumable.delete(event)
          if (id && !answered) resumable.set(id, call)
        },
      }),
    )
    return new Response(tagged, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

/** The call id a POST carries: the `_meta[RELATED_CALL]` of the `tools/call` in its body. */
function callOf(init: RequestInit | undefined): string | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return undefined
  try {
    const message = JSON.parse(init.body) as { method?: unknown; params?: { _meta?: Record<string, unknown> } }
    const call = message.method === 'tools/call' ? message.params?._meta?.[RELATED_CALL] : undefined
    return typeof call === 'string' ? call : undefined
  } catch {
    return undefined
  }
}

/**
 * Server-sent events, each JSON-RPC request or notification in them given `_meta[RELATED_CALL]`
 * = `call` (or stripped of it, without a call). Everything else passes as it came: ids, event
 * names, retry fields, comments, data that is not a message. `onEvent` hears each event's id and
 * whether it carried a response (the end of the call's stream).
 */
function tagEvents({ call, onEvent }: { call: string | undefined; onEvent(id: string | undefined, answered: boolean): void }): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let buffer = ''
  let lines: string[] = []
  let answered = false

  const finishEvent = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const data = lines.filter((line) => line === 'data' || line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''))
    let out = lines
    if (data.length > 0) {
      const retagged = retag(data.join('\n'), call)
      if (retagged.response) answered = true
      if (retagged.text !== undefined) out = [...lines.filter((line) => line !== 'data' && !line.startsWith('data:')), `data: ${retagged.text}`]
    }
    const id = lines.find((line) => line.startsWith('id:'))?.slice(3).replace(/^ /, '')
    onEvent(id, answered)
    controller.enqueue(encoder.encode(`${out.join('\n')}\n\n`))
    lines = []
  }

  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true })
      // Lines end with CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
      const parts = buffer.split(/\r\n|\n|\r(?!$)/)
      buffer = parts.pop()!
      for (const line of parts) {
        if (line === '') {
          if (lines.length > 0) finishEvent(controller)
        } else lines.push(line)
      }
    },
    flush(controller) {
      buffer += decoder.decode()
      if (buffer) lines.push(buffer.replace(/\r$/, ''))
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.join('\n')))
    },
  })
}

/** The message in `text` with its related call set (or removed); `text` undefined when it is left as it was. */
function retag(text: string, call: string | undefined): { text?: string; response: boolean } {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return { response: false }
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { response: false }
  const fields = message as { method?: unknown; params?: unknown; id?: unknown }
  if (typeof fields.method !== 'string') return { response: 'id' in fields && ('result' in fields || 'error' in fields) }
  const params = typeof fields.params === 'object' && fields.params !== null && !Array.isArray(fields.params) ? (fields.params as Record<string, unknown>) : {}
  const meta = typeof params._meta === 'object' && params._meta !== null && !Array.isArray(params._meta) ? { ...(params._meta as Record<string, unknown>) } : {}
  if (call === undefined && !(RELATED_CALL in meta)) return { response: false }
  if (call === undefined) delete meta[RELATED_CALL]
  else meta[RELATED_CALL] = call
  return { text: JSON.stringify({ ...fields, params: { ...params, _meta: meta } }), response: false }
}

/** The call a server message's params name (as `relatedCallsFetch` tagged them), if any. */
export function relatedCallOf(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta
  const call = meta?.[RELATED_CALL]
  return typeof call === 'string' ? call : undefined
}
