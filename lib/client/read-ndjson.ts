import type { ChatEvent } from '../protocol/events'

/** A line of the stream that is not a JSON object with a string `type`. */
export class NdjsonParseError extends Error {
  override name = 'NdjsonParseError'
  constructor(
    message: string,
    readonly line: string,
  ) {
    super(message)
  }
}

/**
 * Read a response body as NDJSON chat events (or another stream's lines, `Line`: the waiting
 * watch's `WaitingCallNews`), one per line, as the bytes arrive.
 * Lines may be split across chunks; the last line needs no trailing newline; blank lines
 * are skipped. A line that is not a JSON object with a string `type` throws
 * `NdjsonParseError`. Event types this client does not know pass through unchanged.
 *
 * @example
 * for await (const event of readNdjson(response.body)) dispatch(event)
 */
export async function* readNdjson<Line extends { type: string } = ChatEvent>(body: ReadableStream<Uint8Array>): AsyncGenerator<Line, void, undefined> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let lineNumber = 0
  try {
    while (true) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      let newline = buffer.indexOf('\n')
      while (newline !== -1) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        lineNumber++
        const event = parseLine(line, lineNumber)
        if (event) yield event as Line
        newline = buffer.indexOf('\n')
      }
      if (done) break
    }
    if (buffer.trim() !== '') {
      const event = parseLine(buffer, lineNumber + 1)
      if (event) yield event as Line
    }
  } finally {
    // Stops the download when the consumer leaves early (an error, or it stopped reading).
    reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

function parseLine(line: string, lineNumber: number): { type: string } | undefined {
  const text = line.trim()
  if (text === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new NdjsonParseError(`Line ${lineNumber} of the response is not valid JSON.`, line)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') {
    throw new NdjsonParseError(`Line ${lineNumber} of the response is not an event.`, line)
  }
  return value as { type: string }
}
