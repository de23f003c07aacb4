import { createScope, type Operation } from 'effection'
import { bookTrainTool } from '@/fixtures/book-train/tool'
import { bookTrainOffline } from '@/fixtures/book-train/offline'
import { chatHistoryOf, createMemoryConversationStore, useConversations, type ChatsApp, type Conversations } from '../../conversations'
import { createChatServer, type ChatServer } from '../../engine'
import { createChatTestClient, elicitRequests, type ChatTestClient } from '../../engine/testing/chat-test-client'
import { createClientIdentity } from '../../http'
import { createOfflineModel } from '../../models'
import type { PluginElicitRequestEvent } from '../../protocol/events'
import type { SessionStore } from '../../sessions'
import type { CallEnds } from '../../sessions/call-ends'
import { openInScope, type InScope } from '../../testing/in-scope'
import { createChatCalls, type ChatCallsOfServer } from '../chat-calls-of-sessions'

export const SECRET = 'a-secret-for-the-chat-calls-tests-only-0123456789'

/** One instance of the app for these tests: a chat server keeping its turns in `chats`, and the chats API with its `ChatCalls` over the stops the server's sessions announce. */
export interface CallsInstance {
  chat: ChatServer
  calls: ChatCallsOfServer
  app: ChatsApp
  close(): Promise<void>
}

/**
 * An instance over the chats `chats` (shared by instances, as the store is), sessions in
 * `useStore`'s store (memory when absent), stops announced through `useCallEnds` (within the
 * chat server when absent).
 */
export async function startCallsInstance({
  chats,
  useCallEnds,
  useStore,
  idleTimeoutMs,
  maxWatchesPerIdentity,
}: {
  chats: InScope<Conversations>
  useCallEnds?: () => Operation<CallEnds>
  useStore?: () => Operation<SessionStore>
  idleTimeoutMs?: number
  maxWatchesPerIdentity?: number
}): Promise<CallsInstance> {
  const chat = await createChatServer({
    model: createOfflineModel({ delayMs: 0, skills: [bookTrainOffline] }),
    tools: [bookTrainTool],
    history: chatHistoryOf(chats.value),
    secret: SECRET,
    useStore,
    useCallEnds,
    idleTimeoutMs,
  })
  const [scope, destroy] = createScope()
  const calls = createChatCalls({ standing: (call) => chat.callStanding(call), ends: chat.callEnds, run: (operation) => scope.run(operation), maxWatchesPerIdentity })
  const identity = createClientIdentity({ secret: SECRET })
  return {
    chat,
    calls,
    app: { conversations: chats.value, identity, limits: { maxChats: 100, maxEvents: 10_000, maxBytes: 4 * 1024 * 1024 }, run: chats.run, calls },
    async close() {
      await destroy()
      await chat.close()
    },
  }
}

/** Chats in memory, shared by the instances of a test. */
export function openMemoryChats(): Promise<InScope<Conversations>> {
  return openInScope(() => useConversations({ store: createMemoryConversationStore() }))
}

/** A person with a kept chat on `instance`, whose booking waits at its first question. */
export async function personWaiting(instance: CallsInstance, chats: InScope<Conversations>): Promise<{ person: ChatTestClient; owner: string; chatId: string; question: PluginElicitRequestEvent }> {
  const person = createChatTestClient({ chat: instance.chat, identity: instance.app.identity })
  await person.post({ messages: [] })
  const owner = person.clientId!
  const { id } = await chats.run(() => chats.value.create(owner))
  person.chatId = id
  const question = elicitRequests((await person.say('Book a train from Paris to Lyon')).events)[0]!
  return { person, owner, chatId: id, question }
}

/** A request of the chats API from `person`'s browser (its identity cookie). */
export function chatsRequest(person: ChatTestClient, path: string, init: RequestInit = {}): Request {
  return new Request(`http://localhost${path}`, { ...init, headers: { ...(person.cookie ? { cookie: person.cookie } : {}), ...(init.headers as Record<string, string>) } })
}

/** Reads NDJSON lines off a response as they come: `next()` is the next parsed line, or undefined once the body has ended. */
export function ndjsonLines(response: Response) {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  return {
    async next(): Promise<unknown> {
      for (;;) {
        const newline = buffer.indexOf('\n')
        if (newline !== -1) {
          const line = buffer.slice(0, newline)
          buffer = buffer.slice(newline + 1)
          return JSON.parse(line)
        }
        const { done, value } = await reader.read()
        if (done) return undefined
        buffer += decoder.decode(value, { stream: true })
      }
    },
    cancel: () => reader.cancel(),
  }
}
