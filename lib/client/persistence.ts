import type { ChatState } from './chat-state'
import { CHAT_STORAGE_KEY } from './storage-key'

export { CHAT_STORAGE_KEY }

/** Where the client state survives a reload. */
export interface ChatPersistence {
  /**
   * Nothing stored: undefined, at once (a first visit loads no validator). Something stored: the
   * chat once checked (its checker is a chunk of its own), or undefined when it was not valid —
   * then it is removed.
   */
  load(): Promise<ChatState | undefined> | undefined
  save(state: ChatState): void
  clear(): void
}

/**
 * Keep the chat in `localStorage` under a versioned key. Anything stored that does not
 * validate is removed and the chat starts fresh; a storage that refuses writes (quota,
 * private mode) only loses persistence, never the chat.
 *
 * @example
 * const persistence = createLocalPersistence({ storage: window.localStorage })
 * const restored = persistence.load() ?? initialChatState
 */
export function createLocalPersistence({
  storage,
  key = CHAT_STORAGE_KEY,
}: {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  key?: string
}): ChatPersistence {
  return {
    load() {
      let text: string | null
      try {
        text = storage.getItem(key)
      } catch {
        return undefined
      }
      if (text === null) return undefined
      const stored = text
      return import('./stored-chat-schema').then(({ parseStoredChat }) => {
        const state = parseStoredChat(stored)
        if (state) return state
        try {
          storage.removeItem(key)
        } catch {
          // Nothing more to do: the chat starts fresh either way.
        }
        return undefined
      })
    },
    save(state) {
      try {
        // An empty chat is not stored: the next visit then has nothing to check, and loads no checker.
        if (state.entries.length === 0 && state.messages.length === 0) storage.removeItem(key)
        else storage.setItem(key, JSON.stringify(state))
      } catch {
        // Quota exceeded or storage disabled: the chat goes on without persistence.
      }
    },
    clear() {
      try {
        storage.removeItem(key)
      } catch {
        // As above.
      }
    },
  }
}

/** `localStorage` persistence in a browser; none during server rendering or when storage is blocked. */
export function createBrowserPersistence(): ChatPersistence | undefined {
  if (typeof window === 'undefined') return undefined
  try {
    return createLocalPersistence({ storage: window.localStorage })
  } catch {
    return undefined
  }
}
