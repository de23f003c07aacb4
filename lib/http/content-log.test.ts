import { afterEach, describe, expect, it, vi } from 'vitest'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { createChatApi } from '@/e2e/support/chat-api'
import { createChatServer } from '../engine/chat-server'
import { createOfflineModel, createOpenAIModel } from '../models'
import { startOpenAICompatibleServer } from '../models/testing/openai-compatible-server'
import { serveFetch } from '../mcp/server/testing/serve-fetch'
import { createLogger, type Logger } from '../telemetry'
import { handleChatRequest } from './handle-chat-request'
import { installRequestTelemetry } from './request-telemetry'

/**
 * What the JSON log says of a chat's contents, over real HTTP: the request hook installed as the
 * server installs it, the process's logger one that keeps its lines. A message's text, a model
 * error that quotes it, an answer the tool rejected: on no line, unless `LOG_CONTENT=1`.
 */
const globalForLog = globalThis as typeof globalThis & { serverLogger?: Logger }
installRequestTelemetry()

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

function logWith(content: boolean): string[] {
  const lines: string[] = []
  globalForLog.serverLogger = createLogger({ level: 'info', pretty: false, content, write: (line) => lines.push(line) })
  return lines
}

async function served(model: Parameters<typeof createChatServer>[0]['model']) {
  const chat = await createChatServer({ model, tools: [bookTrainTool] })
  closing.push(() => chat.close())
  const server = await serveFetch((request) => handleChatRequest({ request, chat }))
  closing.push(server.close)
  return createChatApi({ baseURL: server.url.origin })
}

/** A model server that refuses every request quoting the person's words, as a provider's content filter does. */
async function quotingModel() {
  const provider = await startOpenAICompatibleServer({
    respond: (body) => {
      throw new Error(`The prompt was refused: "${String(body.messages.at(-1)?.content)}"`)
    },
  })
  closing.push(provider.close)
  return createOpenAIModel({ apiKey: 'test', baseURL: provider.url, model: 'test-model' })
}

const SECRET_WORDS = 'my secret plan for Tuesday'
const requestLines = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request' && line.route === '/api/chat')

describe('LOG_CONTENT', { timeout: 30_000 }, () => {
  it('unset: a model error that quotes the message is logged by its code alone, and no line holds the words', async () => {
    const lines = logWith(false)
    const api = await served(await quotingModel())
    const turn = await api.say(SECRET_WORDS)
    expect(turn.events.find((event) => event.type === 'error')).toMatchObject({ code: 'turn_failed', message: expect.stringContaining(SECRET_WORDS) })
    await vi.waitFor(() => expect(requestLines(lines)).toHaveLength(1))
    expect(requestLines(lines)[0]).toMatchObject({ method: 'POST', status: 200, code: 'turn_failed' })
    expect(requestLines(lines)[0]!.message).toBeUndefined()
    expect(lines.join('')).not.toContain('secret plan')
  })

  it('=1: the model error’s message is on the request’s line', async () => {
    const lines = logWith(true)
    const api = await served(await quotingModel())
    await api.say(SECRET_WORDS)
    await vi.waitFor(() => expect(requestLines(lines)).toHaveLength(1))
    expect(requestLines(lines)[0]).toMatchObject({ code: 'turn_failed', message: expect.stringContaining(SECRET_WORDS) })
  })

  it('an answer that does not fit its question: a line of its own with why, only with LOG_CONTENT=1; a refusal’s message likewise', async () => {
    for (const content of [false, true]) {
      const lines = logWith(content)
      const api = await served(createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }))
      const first = await api.say('Book a train from Paris to Lyon')
      const rejected = await api.answer({ event: first.elicit!, content: { trainId: '', note: 'no-such-train-XYZ' } })
      expect(rejected.events.some((event) => event.type === 'plugin_elicit_rejected')).toBe(true)
      const refused = await api.post({ messages: 'not a list' })
      expect(refused.status).toBe(400)
      await vi.waitFor(() => expect(requestLines(lines)).toHaveLength(3))
      const answerLines = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'answer rejected')
      const refusalLine = requestLines(lines)[2]!
      expect(refusalLine).toMatchObject({ status: 400, code: 'invalid_request' })
      if (content) {
        expect(answerLines).toEqual([expect.objectContaining({ level: 'info', elicitId: first.elicit!.elicitId, message: expect.any(String) })])
        expect(refusalLine.message).toEqual(expect.any(String))
      } else {
        expect(answerLines).toEqual([])
        expect(refusalLine.message).toBeUndefined()
        expect(lines.join('')).not.toContain('no-such-train-XYZ')
      }
    }
  })
})
