import type { Operation } from 'effection'
import {
  createMemoryConversationStore,
  useConversations,
  useEmbeddedConversationStore,
  useRedisConversationStore,
  type ConversationLimits,
  type Conversations,
  type ConversationStore,
} from '../conversations'
import type { Tracer } from '@opentelemetry/api'
import { openForProcess } from './open-for-process'
import { CONVERSATION_STORE_OPERATIONS, dbSystemOf, observedStore } from './observed-store'

/** The app's chats and how to run an operation on them from a promise. */
export interface OpenConversations {
  conversations: Conversations
  run<T>(operation: () => Operation<T>): Promise<T>
}

/**
 * Opens the app's kept chats where the sessions live — Redis (`redisUrl`), else
 * `DATA_DIR/conversations.db` (`store: 'memory'`: in memory) — in a scope that lasts as long as
 * the process (never destroyed, as the chat server's is not). The chat server keeps its turns in
 * them and the chats API reads them: one instance for both (`chat-server-instance.ts`).
 */
export async function openConversations({
  store,
  redisUrl,
  dataDir,
  limits,
  tracer,
}: {
  store: string
  redisUrl?: string
  dataDir: string
  limits: ConversationLimits
  /** Traces exported: a span per read and write within a turn (`observedStore`). */
  tracer?: Tracer
}): Promise<OpenConversations> {
  const useStore = (): Operation<ConversationStore> =>
    store === 'redis'
      ? useRedisConversationStore({ url: redisUrl! })
      : store === 'embedded'
        ? useEmbeddedConversationStore({ directory: dataDir })
        : (function* () {
            return createMemoryConversationStore()
          })()
  const { value: conversations, run } = await openForProcess(function* () {
    const opened = yield* useStore()
    return yield* useConversations({ store: observedStore(opened, CONVERSATION_STORE_OPERATIONS, { system: dbSystemOf(store), collection: 'chats', tracer }), limits })
  })
  return { conversations, run }
}
