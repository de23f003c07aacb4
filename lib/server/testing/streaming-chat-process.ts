// Run by lib/engine/chat-history-kill.test.ts as a child process, then killed with SIGKILL
// mid-turn: a chat server keeping its turns in the embedded store in the directory given as its
// argument, and a "browser" in the same process reading the turn's NDJSON response. Prints the
// chat's id first (`chat <id>`), then `received <event JSON>` for each event as the browser reads
// it, and streams (a model that never stops talking, a piece a millisecond) until it is killed.
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { call, main } from 'effection'
import { chatHistoryOf, useConversations, useEmbeddedConversationStore } from '../../conversations'
import { createChatServer } from '../../engine'

const directory = process.argv[2]
if (!directory) throw new Error('usage: streaming-chat-process.ts <directory>')

/** A model whose answer never ends: `piece <n> `, one piece a millisecond, so the kill always lands mid-turn. */
const endlessModel: LanguageModelV3 = {
  specificationVersion: 'v3',
  provider: 'test',
  modelId: 'endless',
  supportedUrls: {},
  doGenerate() {
    throw new Error('the endless model only streams')
  },
  async doStream() {
    let piece = -2
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async pull(controller) {
        piece++
        if (piece === -1) return controller.enqueue({ type: 'stream-start', warnings: [] })
        if (piece === 0) controller.enqueue({ type: 'text-start', id: 'answer' })
        await new Promise((resolve) => setTimeout(resolve, 1))
        controller.enqueue({ type: 'text-delta', id: 'answer', delta: `piece ${piece} ` })
      },
    })
    return { stream }
  },
}

await main(function* () {
  const chats = yield* useConversations({ store: yield* useEmbeddedConversationStore({ directory }) })
  const chat = yield* call(() => createChatServer({ model: endlessModel, tools: [], history: chatHistoryOf(chats) }))
  const { id } = yield* chats.create('owner')
  console.log(`chat ${id}`)
  const body = { chatId: id, messages: [{ role: 'user', content: 'Tell me a long story' }] }
  const reader = (yield* call(() => chat.open({ body, clientId: 'owner' }))).getReader()
  const decoder = new TextDecoder()
  let pending = ''
  while (true) {
    const { done, value } = yield* call(() => reader.read())
    if (done) break
    pending += decoder.decode(value, { stream: true })
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) if (line) console.log(`received ${line}`)
  }
  console.log('ended')
})
