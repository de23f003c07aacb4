/**
 * How much one identity may keep. Each has a default and an environment variable
 * (lib/server/conversation-limits.ts reads them; docs/conversations.md lists them).
 */
export interface ConversationLimits {
  /** Chats one identity keeps (deleted ones waiting for their undo do not count): `CHATS_MAX_PER_IDENTITY`. */
  maxChats: number
  /** Events of one chat, every turn's together: `CHAT_MAX_EVENTS`. */
  maxEvents: number
  /** Bytes of one chat as stored JSON: turns' inputs, events and its conversation state: `CHAT_MAX_BYTES`. */
  maxBytes: number
}

export const DEFAULT_CONVERSATION_LIMITS: ConversationLimits = {
  maxChats: 5_000,
  maxEvents: 20_000,
  maxBytes: 8 * 1024 * 1024,
}

/** How long a deleted chat can be restored; then it is gone (purged by the store). */
export const UNDO_MS = 30_000

/** Chats in one page of the list, unless the request asks for fewer (or more, up to `MAX_PAGE_SIZE`). */
export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200
