import { createScope, suspend, type Operation } from 'effection'
import {
  createMemoryConversationStore,
  useConversations,
  useEmbeddedConversationStore,
  useRedisConversationStore,
  type ChatsApp,
  type Conversations,
  type ConversationStore,
} from '../conversations'
import { getChatApp } from './chat-server-instance'
import { readServerConfig } from './config'
import { readConversationLimits } from './conversation-limits'

const globalForChats = globalThis as typeof globalThis & { chatsApp?: Promise<ChatsApp> }

/**
 * The app's kept chats and what the chats API needs with them: the chat's identity (a chat
 * belongs to a browser) and admission. Chats live where the sessions do — Redis with
 * `REDIS_URL`, else `DATA_DIR/conversations.db` (`SESSION_STORE=memory`: in memory) — in a
 * scope that lasts as long as the process. Kept on globalThis, like the chat app, so that
 * dev-mode module reloads do not open the store twice.
 */
export function getChatsApp(): Promise<ChatsApp> {
  globalForChats.chatsApp ??= start()
  return globalForChats.chatsApp
}

async function start(): Promise<ChatsApp> {
  const config = readServerConfig()
  const limits = readConversationLimits()
  const { identity, admission, store } = await getChatApp()
  const useStore = (): Operation<ConversationStore> =>
    store === 'redis'
      ? useRedisConversationStore({ url: config.redisUrl! })
      : store === 'embedded'
        ? useEmbeddedConversationStore({ directory: config.dataDir })
        : (function* () {
            return createMemoryConversationStore()
          })()
  // The process's own scope for the chats: it is never destroyed, as the chat server's is not.
  const [scope] = createScope()
  const conversations = await new Promise<Conversations>((resolve, reject) => {
    scope
      .run(function* () {
        resolve(yield* useConversations({ store: yield* useStore(), limits }))
        yield* suspend()
      })
      .catch(reject)
  })
  return { conversations, identity, admission, limits, run: (operation) => scope.run(operation) }
}
