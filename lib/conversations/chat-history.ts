import type { Operation } from 'effection'
import { ChatRequestError } from '../http'
import type { ChatEvent } from '../protocol/events'
import type { TurnInput } from './chat'
import type { TurnMemo } from './conversation-store'
import { toConversationFailure } from './conversation-failure'
import type { Conversations } from './conversations'
import { isConversationError } from './errors'

/**
 * The chats as the chat engine keeps its turns in them (the engine's `ChatHistory` port, which
 * this matches without importing the engine): `openTurn` checks before streaming, and the turn's
 * `keep` stores its input with its first batch of events in one write, then each later batch,
 * with their refusals as the chat's own (`ChatRequestError`: `chat_not_found` 404,
 * `chat_too_large` 413, `chat_exists` 409, `too_many_chats` 429, `store_unavailable` 503), which
 * the engine answers before streaming or as the `error` event that ends a turn.
 */
export function chatHistoryOf(conversations: Conversations) {
  return {
    *openTurn(owner: string, chatId: string, input: TurnInput, { create = false }: { create?: boolean } = {}) {
      // What the check read of the chat, carried to the turn's writes: the row is read once a turn, not at each write.
      const memo: TurnMemo = {}
      yield* refusedAsChat(() => conversations.startTurn(owner, chatId, input, { create, check: true, memo }))
      let turn: number | undefined
      return {
        *keep(events: readonly ChatEvent[], json?: readonly string[]): Operation<void> {
          if (turn !== undefined) return yield* refusedAsChat(() => conversations.appendEvents(owner, chatId, turn!, events, { json, memo }))
          turn = yield* refusedAsChat(() => conversations.startTurn(owner, chatId, input, { create, events, json, memo }))
        },
      }
    },
  }
}

function* refusedAsChat<T>(operation: () => Operation<T>): Operation<T> {
  try {
    return yield* operation()
  } catch (error) {
    const failure = toConversationFailure(error)
    if (!failure) throw error
    if (isConversationError(failure)) {
      const { code } = failure
      if (code === 'chat_not_found' || code === 'chat_too_large' || code === 'chat_exists' || code === 'too_many_chats') throw new ChatRequestError(code, failure.message)
      throw error
    }
    throw failure
  }
}
