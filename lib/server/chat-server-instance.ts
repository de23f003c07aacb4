import { createChatServer, type ChatServer } from '../engine/chat-server'
import { selectChatModel } from '../models'
import { pluginTools } from '@/plugins'

const globalForChat = globalThis as typeof globalThis & { chatServer?: Promise<ChatServer> }

/**
 * The app's one chat server: the plugins' tools and the model the environment selects.
 * Kept on globalThis so that dev-mode module reloads do not strand live sessions.
 */
export function getChatServer(): Promise<ChatServer> {
  globalForChat.chatServer ??= createChatServer({
    model: selectChatModel().model,
    tools: pluginTools,
    idleTimeoutMs: positiveNumber(process.env.PLUGIN_SESSION_IDLE_TIMEOUT_MS),
  })
  return globalForChat.chatServer
}

function positiveNumber(text: string | undefined): number | undefined {
  const value = Number(text)
  return text && Number.isFinite(value) && value > 0 ? value : undefined
}
