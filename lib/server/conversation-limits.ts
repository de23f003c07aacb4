import { DEFAULT_CONVERSATION_LIMITS, type ConversationLimits } from '../conversations'
import { ConfigError, type Environment } from './config-error'

const VARIABLES: Record<keyof ConversationLimits, string> = {
  maxChats: 'CHATS_MAX_PER_IDENTITY',
  maxEvents: 'CHAT_MAX_EVENTS',
  maxBytes: 'CHAT_MAX_BYTES',
}

/**
 * The limits on kept chats, each from its environment variable (docs/conversations.md, "Limits"):
 * a `ConfigError` naming the variable for a value that is not a positive whole number. Read at
 * start with the rest of the configuration (lib/server/conversations-instance.ts).
 */
export function readConversationLimits(env: Environment = process.env): ConversationLimits {
  const limits = { ...DEFAULT_CONVERSATION_LIMITS }
  for (const [field, name] of Object.entries(VARIABLES) as Array<[keyof ConversationLimits, string]>) {
    const text = env[name]?.trim()
    if (!text) continue
    const value = Number(text)
    if (!Number.isInteger(value) || value <= 0) {
      throw new ConfigError(`${name} must be a positive whole number (default ${DEFAULT_CONVERSATION_LIMITS[field]}); got "${text}".`)
    }
    limits[field] = value
  }
  return limits
}
