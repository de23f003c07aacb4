import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A message as clients send it to `/chat/completions`. */
export interface ChatCompletionMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool'
  content?: string | null | Array<{ type: string; text?: string; [key: string]: unknown }>
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>
  tool_call_id?: string
  [key: string]: unknown
}

/** The parsed body of a chat-completions request, as the server received it. */
export interface ChatCompletionRequestBody {
  model: string
  messages: ChatCompletionMessage[]
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown; strict?: boolean } }>
  tool_choice?: unknown
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  [key: string]: unknown
}

/** One tool call the scripted model makes; `arguments` is sent JSON-encoded. */
export interface ScriptedToolCall {
  id: string
  name: string
  arguments: object
}

/** What the scripted model answers: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string
  toolCalls?: ScriptedToolCall[]
}

export interface OpenAICompatibleServer {
  /** Base URL ending in `/v1`, for `createOpenAI({ baseURL })`. */
  url: string
  /** Every valid request body received, in order. */
  requests: ChatCompletionRequestBody[]
  /** The requests whose client hung up before the answer was complete (e.g. an aborted call). */
  hungUp: ChatCompletionRequestBody[]
  /** Stop listening and drop open connections. */
  close(): Promise<void>
}

/**
 * A local HTTP server speaking the OpenAI chat-completions protocol, for tests: each
 * `POST /v1/chat/completions` is answered with what `respond` scripts — as a
 * `chat.completion` JSON, or as `chat.completion.chunk` server-sent events when the request
 * has `stream: true` (content and tool-call arguments split over several chunks, usage when
 * `stream_options.include_usage`, then `data: [DONE]`). A body without a `messages` array
 * gets a 400 error in OpenAI's format; if `respond` throws, a 500.
 *
 * @example
 * const server = await startOpenAICompatibleServer({ respond: () => ({ text: 'Hello there!' }) })
 * const model = createOpenAIModel({ apiKey: 'test', baseURL: server.url, model: 'test-model' })
 * // ... server.requests[0].messages ...
 * await server.close()
 */
export async function startOpenAICompatibleServer({
  respond,
}: {
  respond(body: ChatCompletionRequestBody): ScriptedReply | PromiseLike<ScriptedReply>
}): Promise<OpenAICompatibleServer> {
  const requests: ChatCompletionRequestBody[] = []
  const hungUp: ChatCompletionRequestBody[] = []
  let completions = 0

  const server = createServer((request, response) => {
    handle({ request, response }).catch((error: unknown) => {
      if (!response.headersSent) sendError({ response, status: 500, message: errorMessage(error), type: 'server_error' })
      else response.destroy()
    })
  })

  async function handle({ request, response }: { request: IncomingMessage; response: ServerResponse }): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      sendError({ response, status: 404, message: `No route for ${request.method} ${path}`, type: 'invalid_request_error' })
      return
    }
    const body = parseBody(await readBody(request))
    if (typeof body === 'string') {
      sendError({ response, status: 400, message: body, type: 'invalid_request_error' })
      return
    }
    requests.push(body)
    response.once('close', () => {
      if (!response.writableFinished) hungUp.push(body)
    })
    const reply = await respond(body)
    if (response.destroyed) return
    const completion = { id: `chatcmpl-${++completions}`, created: Math.floor(Date.now() / 1000), model: body.model }
    if (body.stream) sendChunks({ response, completion, reply, body })
    else sendCompletion({ response, completion, reply, body })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    hungUp,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

interface CompletionHead {
  id: string
  created: number
  model: string
}

function sendCompletion({ response, completion, reply, body }: { response: ServerResponse; completion: CompletionHead; reply: ScriptedReply; body: ChatCompletionRequestBody }): void {
  const toolCalls = reply.toolCalls ?? []
  const message = {
    role: 'assistant',
    content: reply.text ?? null,
    ...(toolCalls.length > 0
      ? { tool_calls: toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) }
      : {}),
  }
  sendJson({
    response,
    status: 200,
    value: {
      ...completion,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finishReason(reply), logprobs: null }],
      usage: usageOf(body, reply),
    },
  })
}

function sendChunks({ response, completion, reply, body }: { response: ServerResponse; completion: CompletionHead; reply: ScriptedReply; body: ChatCompletionRequestBody }): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const send = (value: unknown) => response.write(`data: ${JSON.stringify(value)}\n\n`)
  const chunk = (delta: object, finish: string | null = null) =>
    send({ ...completion, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })

  chunk({ role: 'assistant' })
  for (const piece of splitText(reply.text ?? '')) chunk({ content: piece })
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })
    for (const piece of splitInThree(JSON.stringify(call.arguments))) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] })
    }
  }
  chunk({}, finishReason(reply))
  if (body.stream_options?.include_usage) {
    send({ ...completion, object: 'chat.completion.chunk', choices: [], usage: usageOf(body, reply) })
  }
  response.end('data: [DONE]\n\n')
}

function finishReason(reply: ScriptedReply): 'tool_calls' | 'stop' {
  return (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop'
}

function usageOf(body: ChatCompletionRequestBody, reply: ScriptedReply) {
  const prompt_tokens = Math.ceil(JSON.stringify(body.messages).length / 4)
  const completion_tokens = Math.ceil(((reply.text ?? '').length + JSON.stringify(reply.toolCalls ?? []).length) / 4)
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens }
}

/** Two words per chunk, whitespace kept. */
function splitText(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? []
  const pieces: string[] = []
  for (let start = 0; start < words.length; start += 2) pieces.push(words.slice(start, start + 2).join(''))
  return pieces
}

function splitInThree(text: string): string[] {
  const size = Math.ceil(text.length / 3)
  const pieces: string[] = []
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size))
  return pieces
}

/** The body, or a message saying why it is not a chat-completions request. */
function parseBody(raw: string): ChatCompletionRequestBody | string {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return 'The body is not valid JSON.'
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be a JSON object.'
  const { messages, model } = body as Record<string, unknown>
  if (!Array.isArray(messages) || messages.length === 0) return "'messages' must be a non-empty array."
  if (messages.some((message) => typeof message !== 'object' || message === null || typeof message.role !== 'string')) {
    return "Every message needs a 'role'."
  }
  if (typeof model !== 'string' || !model) return "'model' must be a non-empty string."
  return body as ChatCompletionRequestBody
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function sendError({ response, status, message, type }: { response: ServerResponse; status: number; message: string; type: string }): void {
  sendJson({ response, status, value: { error: { message, type, param: null, code: null } } })
}

function sendJson({ response, status, value }: { response: ServerResponse; status: number; value: unknown }): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(value))
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
