/**
 * Where the chat is kept in `localStorage`. A change of the stored shape either reads the earlier
 * one into the new (stored-chat-schema.ts) or bumps the key; older data is never misread.
 */
export const CHAT_STORAGE_KEY = 'elicit-chat/state/v1'
