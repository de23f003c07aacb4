import { toApiFailure, type ChatRequestError } from '../http'
import { isConversationError, isConversationStoreUnavailable, type ConversationError } from './errors'

/**
 * What a client is told of a failure about chats, as `toChatFailure` does for the chat: a
 * `ConversationError` (404, 413, 429…), the edge's refusals (body, rate), or the store down —
 * the same 503 `store_unavailable` as when the sessions' store is down. Before streaming it is
 * the response (`toResponse`); once a turn streams, its `code` and `message` are the `error`
 * event's. Undefined for anything else: a bug, which the caller lets be a 500.
 */
export function toConversationFailure(error: unknown): ConversationError | ChatRequestError | undefined {
  return toApiFailure(error, { isOwn: isConversationError, isStoreUnavailable: isConversationStoreUnavailable, what: 'Chats' })
}
