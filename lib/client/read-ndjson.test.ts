import { describe, expect, it } from 'vitest'
import { NdjsonParseError, readNdjson } from './read-ndjson'

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
}

async function collect(body: ReadableStream<Uint8Array>) {
  const events: unknown[] = []
  for await (const event of readNdjson(body)) events.push(event)
  return events
}

describe('readNdjson', () => {
  it('reads one event per line', async () => {
    const events = await collect(streamOf(['{"type":"text","content":"Hi"}\n{"type":"complete","text":"Hi"}\n']))
    expect(events).toEqual([
      { type: 'text', content: 'Hi' },
      { type: 'complete', text: 'Hi' },
    ])
  })

  it('joins lines split across chunks, including inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('{"type":"text","content":"café ✈"}\n')
    const cut = bytes.length - 5 // inside "✈" (3 bytes)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 7))
        controller.enqueue(bytes.slice(7, cut))
        controller.enqueue(bytes.slice(cut))
        controller.close()
      },
    })
    expect(await collect(body)).toEqual([{ type: 'text', content: 'café ✈' }])
  })

  it('reads a trailing line without a newline and skips blank lines', async () => {
    const events = await collect(streamOf(['\n{"type":"text","content":"a"}\r\n\n', '{"type":"complete","text":"a"}']))
    expect(events).toEqual([
      { type: 'text', content: 'a' },
      { type: 'complete', text: 'a' },
    ])
  })

  it('yields the events before a bad line, then throws', async () => {
    const seen: unknown[] = []
    const reading = (async () => {
      for await (const event of readNdjson(streamOf(['{"type":"text","content":"a"}\n{not json}\n']))) seen.push(event)
    })()
    await expect(reading).rejects.toBeInstanceOf(NdjsonParseError)
    await expect(reading).rejects.toThrow('Line 2 of the response is not valid JSON.')
    expect(seen).toEqual([{ type: 'text', content: 'a' }])
  })

  it('rejects JSON that is not an event', async () => {
    await expect(collect(streamOf(['[1,2]\n']))).rejects.toThrow('Line 1 of the response is not an event.')
    await expect(collect(streamOf(['{"content":"no type"}']))).rejects.toThrow('not an event')
  })

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('{"type":"text","content":"x"}\n'))
      },
      cancel() {
        cancelled = true
      },
    })
    for await (const event of readNdjson(body)) {
      expect(event.type).toBe('text')
      break
    }
    expect(cancelled).toBe(true)
  })
})
