// What the chat controller's tests share: a scripted /api/chat and controllers started over it.
// The fixture plugins and their turns are the fixtures' own
// (fixtures/book-train/testing/chat-turns.ts, fixtures/two-step/plugin.ts, fixtures/elicit-event.ts):
// the framework's layers import no plugin, and build none.
import { vi } from 'vitest'
import type { ChatEvent } from '../../protocol/events'
import type { ChatRequest } from '../../protocol/request-schema'
import { createChatController, type ChatController } from '../chat-controller'
import { renderKey } from '../handler-tasks'
import type { ToolCallEntry } from '../display-entries'

/** A scripted `/api/chat`: each request gets the next answer, given the parsed body. */
export function createServer() {
  const requests: ChatRequest[] = []
  const signals: AbortSignal[] = []
  const answers: Array<(body: ChatRequest) => Response> = []
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as ChatRequest
    requests.push(body)
    if (init?.signal) signals.push(init.signal)
    const answer = answers.shift()
    if (!answer) throw new Error(`unexpected request #${requests.length}: ${JSON.stringify(body)}`)
    return answer(body)
  })
  return {
    requests,
    signals,
    fetch: fetch as unknown as typeof globalThis.fetch,
    next(answer: (body: ChatRequest) => Response) {
      answers.push(answer)
    },
    /** Answer with these events; `hold` keeps the stream open until the request is aborted. */
    stream(events: ChatEvent[], { hold = false }: { hold?: boolean } = {}) {
      answers.push(() => ndjson(events, { hold, signal: signals.at(-1) }))
    },
  }
}

function ndjson(events: ChatEvent[], { hold, signal }: { hold: boolean; signal?: AbortSignal }): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
      if (!hold) return controller.close()
      signal?.addEventListener('abort', () => controller.error(new DOMException('The operation was aborted.', 'AbortError')))
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } })
}

const controllers: ChatController[] = []

/** Detach every controller `start` made: each test file calls it after each test. */
export function detachAll() {
  for (const controller of controllers.splice(0)) controller.detach()
}

export function start(options: Parameters<typeof createChatController>[0]) {
  const controller = createChatController(options)
  controllers.push(controller)
  controller.attach()
  return controller
}

export function card(controller: ChatController, callId: string): ToolCallEntry {
  const entry = controller.getSnapshot().state.entries.find((candidate) => candidate.kind === 'tool' && candidate.callId === callId)
  if (!entry || entry.kind !== 'tool') throw new Error(`no card for ${callId}`)
  return entry
}

/** The components shown for the latest attempt of a call's last elicitation. */
export function rendersOf(controller: ChatController, callId: string) {
  const elicitation = card(controller, callId).elicitations.at(-1)
  if (!elicitation) throw new Error(`no elicitation for ${callId}`)
  return controller.getSnapshot().renders[renderKey(elicitation)] ?? []
}
