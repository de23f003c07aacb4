import { afterEach, describe, expect, it, vi } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { createChatApi } from '@/e2e/support/chat-api'
import { createChatServer } from '../engine/chat-server'
import { createOpenAIModel } from '../models'
import { startOpenAICompatibleServer } from '../models/testing/openai-compatible-server'
import { serveFetch } from '../mcp/server/testing/serve-fetch'
import { createLogger, type Logger } from '../telemetry'
import { handleChatRequest } from './handle-chat-request'
import { installRequestTelemetry } from './request-telemetry'

/**
 * How a request's refusal or turn error reaches its log line without a per-request async
 * context, over real HTTP with the hook installed as the server installs it: what carries them
 * is the server's own, never shown to a client, and no client can point it at another request.
 */
const globalForLog = globalThis as typeof globalThis & { serverLogger?: Logger }
installRequestTelemetry()

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

function logLines(): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = []
  globalForLog.serverLogger = createLogger({ level: 'info', pretty: false, content: false, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) })
  return lines
}

/** A chat whose model fails every call: each turn streams, then ends with a `turn_failed` error event. */
async function failingChat() {
  const provider = await startOpenAICompatibleServer({
    respond: () => {
      throw new Error('The provider is down.')
    },
  })
  closing.push(provider.close)
  const chat = await createChatServer({ model: createOpenAIModel({ apiKey: 'test', baseURL: provider.url, model: 'test-model' }), tools: [bookTrainTool] })
  closing.push(() => chat.close())
  return chat
}

describe('request notes', { timeout: 30_000 }, () => {
  it('a refusal’s code reaches its log line, and what carried it is not in the response the client reads', async () => {
    const lines = logLines()
    const chat = await failingChat()
    const server = await serveFetch((request) => handleChatRequest({ request, chat }))
    closing.push(server.close)
    const response = await fetch(`${server.url.origin}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":"x"}' })
    expect(response.status).toBe(400)
    expect([...response.headers.keys()].filter((name) => name.startsWith('x-elicit'))).toEqual([])
    await vi.waitFor(() => expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1))
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 400, code: 'invalid_request' })
  })

  it('a client that names another request in flight cannot put its turn’s error on that request’s line', async () => {
    const lines = logLines()
    const chat = await failingChat()
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let heldKey: string | null = null
    let onHeld!: () => void
    const held = new Promise<void>((resolve) => (onHeld = resolve))
    const server = await serveFetch(async (request) => {
      if (new URL(request.url).pathname !== '/held') return handleChatRequest({ request, chat })
      // What the route is handed for this request: the key a forger would need.
      heldKey = request.headers.get('x-elicit-request-note')
      onHeld()
      await released
      return new Response('done')
    })
    closing.push(server.close)
    const holding = fetch(`${server.url.origin}/held`)
    await held
    expect(heldKey).not.toBeNull()

    const api = createChatApi({ baseURL: `${server.url.origin}/api/chat`, headers: { 'x-elicit-request-note': heldKey! } })
    const turn = await api.say('Book a train from Paris to Lyon')
    expect(turn.events.find((event) => event.type === 'error')).toMatchObject({ code: 'turn_failed' })
    await vi.waitFor(() => expect(lines.filter((line) => line.msg === 'request' && line.route === '/api/chat')).toHaveLength(1))
    release()
    expect((await holding).status).toBe(200)

    // The held request's line (GET; the model provider's requests, served in this process too, are POSTs).
    const heldLine = () => lines.find((line) => line.msg === 'request' && line.method === 'GET')
    await vi.waitFor(() => expect(heldLine()).toMatchObject({ status: 200 }))
    expect(heldLine()!.code).toBeUndefined()
    expect(lines.find((line) => line.msg === 'request' && line.route === '/api/chat')).toMatchObject({ status: 200, code: 'turn_failed' })
  })
})
