import { describe, expect, it } from 'vitest'
import { RELATED_CALL, relatedCallOf, relatedCallsFetch } from './related-calls'

/** A fetch that answers every request with these server-sent event chunks, noting what it was asked. */
function serving(chunks: string[]) {
  const asked: Array<{ url: string; init?: RequestInit }> = []
  const fetch = async (url: string | URL, init?: RequestInit) => {
    asked.push({ url: String(url), init })
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        controller.close()
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } })
  }
  return { fetch, asked }
}

const post = (call?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x', arguments: {}, ...(call ? { _meta: { [RELATED_CALL]: call, progressToken: 3 } } : {}) } }),
})

/** The JSON-RPC messages in a stream of server-sent events, with each event's other lines. */
async function eventsOf(response: Response) {
  const text = await response.text()
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => {
      const lines = event.split('\n')
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim())
      return { other: lines.filter((line) => !line.startsWith('data:')), message: data.join('') ? JSON.parse(data.join('\n')) : undefined }
    })
}

const elicit = (meta?: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} }, ...(meta ? { _meta: meta } : {}) } })

describe('relatedCallsFetch', () => {
  it("tags each request and notification on a call's stream with the call, split however it arrives, and leaves the rest as it came", async () => {
    const log = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })
    const result = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [] } })
    const stream = `id: e1\r\ndata: \r\n\r\nid: e2\nevent: message\ndata: ${elicit({ other: 1 })}\n\n: a comment\ndata: ${log}\n\nid: e3\ndata: ${result}\n\n`
    // Cut in awkward places: inside a line, between \r and \n.
    const { fetch } = serving([stream.slice(0, 7), stream.slice(7, 19), stream.slice(19, 60), stream.slice(60)])
    const response = await relatedCallsFetch(fetch)('http://server/mcp', post('call-1'))
    expect(response.headers.get('mcp-session-id')).toBe('s1')
    const events = await eventsOf(response)
    expect(events.map(({ message }) => relatedCallOf(message?.params))).toEqual([undefined, 'call-1', 'call-1', undefined])
    expect(events[1]!.message.params).toEqual({ message: 'Name?', requestedSchema: { type: 'object', properties: {} }, _meta: { other: 1, [RELATED_CALL]: 'call-1' } })
    expect(events[1]!.other).toEqual(['id: e2', 'event: message'])
    expect(events[2]!.other).toEqual([': a comment'])
    expect(events[3]!.message).toEqual(JSON.parse(result))
  })

  it('strips a call the server itself wrote on a stream that is no call’s', async () => {
    const { fetch } = serving([`data: ${elicit({ [RELATED_CALL]: 'someone-else' })}\n\n`])
    const events = await eventsOf(await relatedCallsFetch(fetch)('http://server/mcp', { method: 'GET' }))
    expect(events[0]!.message.params._meta).toEqual({})
    const fromOtherPost = await eventsOf(await relatedCallsFetch(serving([`data: ${elicit({ [RELATED_CALL]: 'someone-else' })}\n\n`]).fetch)('http://server/mcp', post()))
    expect(relatedCallOf(fromOtherPost[0]!.message.params)).toBeUndefined()
  })

  it("tags a call's stream resumed after a break (GET with Last-Event-ID) as that call's", async () => {
    const server = serving([`id: e7\ndata: ${elicit()}\n\n`])
    const fetch = relatedCallsFetch(server.fetch)
    await (await fetch('http://server/mcp', post('call-9'))).text()
    const resumed = await eventsOf(await fetch('http://server/mcp', { method: 'GET', headers: { 'last-event-id': 'e7' } }))
    expect(relatedCallOf(resumed[0]!.message.params)).toBe('call-9')
    const unknown = await eventsOf(await fetch('http://server/mcp', { method: 'GET', headers: { 'last-event-id': 'nope' } }))
    expect(relatedCallOf(unknown[0]!.message.params)).toBeUndefined()
  })
})
