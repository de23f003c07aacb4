/**
 * Conversations kept on the server (docs/conversations.md): each browser identity's chats, with
 * every turn's input and every event streamed back, so that a chat reopens exactly as it was.
 *
 * - `useConversations` — the chats over a store, for the chats API and the chat engine;
 * - the stores: `createMemoryConversationStore`, `useEmbeddedConversationStore` (`DATA_DIR/conversations.db`),
 *   `useRedisConversationStore` (`REDIS_URL`);
 * - `handleChatsRequest` — the API under `/api/chats` (the routes in app/api/chats call it);
 * - the export: `chatToMarkdown`, `toChatExport` and `chatExportSchema` (what an import must be).
 *
 * Direction: above `lib/protocol` (the events it keeps) and `lib/http` (identity, body reading,
 * refusals), and nothing else; the composition root (`lib/server/conversations-instance.ts`)
 * opens the store the sessions use.
 */
export type { Chat, ChatSummary, ChatTurn, TurnInput } from './chat'
export { turnInputSchema } from './chat'
export { isChatId, newChatId } from '../protocol/chat-id'
export { titleFrom } from './title'
export type { ConversationStore, NewChat, ListPosition } from './conversation-store'
export { useConversations } from './conversations'
export type { ChatPage, Conversations, ConversationsOptions } from './conversations'
export { DEFAULT_CONVERSATION_LIMITS, UNDO_MS } from './limits'
export type { ConversationLimits } from './limits'
export { ConversationError, ConversationStoreUnavailableError, isConversationError, isConversationStoreUnavailable } from './errors'
export type { ConversationErrorCode } from './errors'
export { toConversationFailure } from './conversation-failure'
export { chatHistoryOf } from './chat-history'
export { chatExportSchema, toChatExport, CHAT_EXPORT_FORMAT, CHAT_EXPORT_VERSION } from './chat-export'
export type { ChatExport } from './chat-export'
export { chatToMarkdown } from './markdown-export'
export { handleChatsRequest } from './handle-chats-request'
export type { ChatsApp, ChatsEndpoint } from './handle-chats-request'
export type { ChatCalls } from './chat-calls'
export { createMemoryConversationStore } from './stores/memory-store'
export { useEmbeddedConversationStore, CONVERSATIONS_DATABASE_FILE } from './stores/embedded-store'
export { useRedisConversationStore } from './stores/redis-store'
