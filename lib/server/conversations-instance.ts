import type { ChatsApp } from '../conversations'
import { getChatCalls } from './chat-calls-instance'
import { getChatApp } from './chat-server-instance'

const globalForChats = globalThis as typeof globalThis & { chatsApp?: Promise<ChatsApp> }

/**
 * The app's kept chats and what the chats API needs with them: the chat's identity (a chat
 * belongs to a browser), admission, and the sessions' word on the calls a chat leaves waiting
 * (`chat-calls-instance.ts`). The chats are the chat server's own (it keeps its turns
 * in them; `chat-server-instance.ts` opens them where the sessions live). Kept on globalThis,
 * like the chat app, so that dev-mode module reloads do not open the store twice.
 */
export function getChatsApp(): Promise<ChatsApp> {
  globalForChats.chatsApp ??= start()
  return globalForChats.chatsApp
}

async function start(): Promise<ChatsApp> {
  const [{ identity, admission, chats }, { calls }] = await Promise.all([getChatApp(), getChatCalls()])
  return { conversations: chats.conversations, identity, admission, limits: chats.limits, run: chats.run, calls }
}
