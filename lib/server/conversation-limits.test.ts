import { describe, expect, it } from 'vitest'
import { DEFAULT_CONVERSATION_LIMITS } from '../conversations'
import { ConfigError } from './config-error'
import { readConversationLimits } from './conversation-limits'

describe('readConversationLimits', () => {
  it('has its defaults when nothing is set, and takes each variable', () => {
    expect(readConversationLimits({})).toEqual(DEFAULT_CONVERSATION_LIMITS)
    expect(readConversationLimits({ CHATS_MAX_PER_IDENTITY: '10', CHAT_MAX_EVENTS: '500', CHAT_MAX_BYTES: ' 1048576 ' })).toEqual({
      maxChats: 10,
      maxEvents: 500,
      maxBytes: 1_048_576,
    })
  })

  it('refuses a value that is not a positive whole number, naming the variable', () => {
    expect(() => readConversationLimits({ CHAT_MAX_BYTES: '1.5' })).toThrow(ConfigError)
    expect(() => readConversationLimits({ CHATS_MAX_PER_IDENTITY: '0' })).toThrow(/CHATS_MAX_PER_IDENTITY must be a positive whole number \(default 5000\); got "0"/)
  })
})
