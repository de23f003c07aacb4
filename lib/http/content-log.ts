import { contentNotes } from './request-telemetry'

/**
 * A streamed turn's body (the answer to `request`) as it is, read on its way out for what `LOG_CONTENT=1` lets the log say
 * (`contentNotes`): its `error` event's message, the answers the tool rejected. Without
 * `LOG_CONTENT` the stream is returned untouched and nothing is read: the log then holds no
 * message text, answer or token.
 */
export function loggingContent(request: Request, stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const note = contentNotes(request)
  if (!note) return stream
  const decoder = new TextDecoder()
  let partial = ''
  const read = (text: string) => {
    const lines = (partial + text).split('\n')
    partial = lines.pop()!
    for (const line of lines) {
      // Only the two events the log may carry are parsed.
      if (!line.includes('"type":"error"') && !line.includes('"type":"plugin_elicit_rejected"')) continue
      try {
        note(JSON.parse(line) as { type: string; message?: string; elicitId?: string })
      } catch {
        // Not an event: nothing to log.
      }
    }
  }
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read(decoder.decode(chunk, { stream: true }))
        controller.enqueue(chunk)
      },
      flush() {
        read(`${decoder.decode()}\n`)
      },
    }),
  )
}
