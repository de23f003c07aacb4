import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineModel } from '../../../models'
import { createMcpEndpoint, type McpEndpoint } from '../mcp-endpoint'
import { registerConformanceFixtures } from './fixtures'

// A 2025 client opens its GET stream after `initialized`, without waiting for it: its first
// tool call can reach the server first. A question the fixture asks in the middle of that call
// belongs on the call's own POST stream; sent to the GET stream that is not there yet, it was
// lost and the call never ended (the suite's tools-call-sampling failed in CI that way).
let endpoint: McpEndpoint

beforeEach(async () => {
  endpoint = await createMcpEndpoint({ tools: [], model: createOfflineModel(), stateSecret: 'c'.repeat(32), extend: registerConformanceFixtures })
})
afterEach(async () => {
  await endpoint.close()
})

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' }

async function post(body: unknown, sessionId?: string): Promise<Response> {
  const headers = { ...HEADERS, ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}) }
  return endpoint.handle(new Request('http://127.0.0.1/api/mcp', { method: 'POST', headers, body: JSON.stringify(body) }))
}

/** A session whose client never opens its GET stream. */
async function initialize(): Promise<string> {
  const response = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: { sampling: {}, elicitation: { form: {} } }, clientInfo: { name: 'no-get-stream', version: '1' } },
  })
  expect(response.status).toBe(200)
  const sessionId = response.headers.get('mcp-session-id')!
  await response.body?.cancel()
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).status).toBe(202)
  return sessionId
}

/** The JSON-RPC messages of an SSE response, as they come; fails after 5 s without one. */
async function* messages(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined
      const next = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('nothing arrived on the tool call’s stream within 5 s')), 5000))),
      ]).finally(() => clearTimeout(timer))
      if (next.done) return
      buffer += next.value
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('')
        buffer = buffer.slice(end + 2)
        if (data) yield JSON.parse(data) as Record<string, unknown>
      }
    }
  } finally {
    await reader.cancel()
  }
}

const cases = [
  {
    tool: 'test_sampling',
    arguments: { prompt: 'Say hello' },
    method: 'sampling/createMessage',
    answer: { role: 'assistant', content: { type: 'text', text: 'Hello from the client' }, model: 'test', stopReason: 'endTurn' },
    result: 'LLM response: Hello from the client',
  },
  {
    tool: 'test_elicitation',
    arguments: { message: 'Your name?' },
    method: 'elicitation/create',
    answer: { action: 'accept', content: { response: 'Ada' } },
    result: 'User response: action=accept, content={"response":"Ada"}',
  },
  { tool: 'test_elicitation_sep1034_defaults', arguments: {}, method: 'elicitation/create', answer: { action: 'decline' }, result: 'action=decline' },
  { tool: 'test_elicitation_sep1330_enums', arguments: {}, method: 'elicitation/create', answer: { action: 'cancel' }, result: 'action=cancel' },
]

describe('the conformance fixtures that ask the client', () => {
  it.each(cases)('$tool asks on the tool call’s own stream and ends there with the answer', async ({ tool, arguments: args, method, answer, result }) => {
    const sessionId = await initialize()
    const call = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }, sessionId)
    expect(call.headers.get('content-type')).toContain('text/event-stream')
    const stream = messages(call)

    const question = (await stream.next()).value as { id: number | string; method: string }
    expect(question.method).toBe(method)
    expect((await post({ jsonrpc: '2.0', id: question.id, result: answer }, sessionId)).status).toBe(202)

    const response = (await stream.next()).value as { id: number; result: { content: { text: string }[] } }
    expect(response.id).toBe(1)
    expect(response.result.content[0]!.text).toContain(result)
    await stream.return(undefined)
  })
})
