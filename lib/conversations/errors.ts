import { hasMark, Refusal } from '../http'

/**
 * The codes the chats API refuses with (their statuses: the app's one table, `ERROR_STATUS`), in
 * the JSON shape every refusal of this app has (lib/http/errors.ts): `{ error: { code, message, issues? } }`.
 */
export type ConversationErrorCode = 'chat_not_found' | 'invalid_request' | 'chat_exists' | 'invalid_import' | 'chat_too_large' | 'too_many_chats' | 'forbidden_origin' | 'too_many_watches'

/** Marks every `ConversationError`, whichever copy of this module made it (`hasMark`). */
const CONVERSATION_ERROR = Symbol.for('chat-app.ConversationError')

/** A request about chats that is refused; it knows its HTTP status. */
export class ConversationError extends Refusal<ConversationErrorCode> {
  override name = 'ConversationError'
  readonly [CONVERSATION_ERROR] = true
  constructor(code: ConversationErrorCode, message: string, issues?: Array<{ path: string; message: string }>) {
    super(code, message, issues)
  }
}

export function isConversationError(error: unknown): error is ConversationError {
  return hasMark(error, CONVERSATION_ERROR)
}

export function chatNotFound(): ConversationError {
  return new ConversationError('chat_not_found', 'There is no such chat (it may have been deleted).')
}

/** A turn that makes its chat names an id the identity has a chat of. */
export function chatExists(): ConversationError {
  return new ConversationError('chat_exists', 'There is a chat of this id already: a new chat needs a new id.')
}

/** The identity has `limit` chats already. */
export function tooManyChats(limit: number): ConversationError {
  return new ConversationError('too_many_chats', `You have ${limit} chats, as many as you may keep. Delete one to start another.`)
}

/** The chat would pass its limit of events (`what: 'events'`) or bytes. */
export function chatTooLarge(what: 'events' | 'bytes', limit: number): ConversationError {
  const size = what === 'events' ? `${limit} events` : `${Math.round((limit / 1024 / 1024) * 10) / 10} MiB`
  return new ConversationError('chat_too_large', `This chat has reached its size limit (${size}). Start a new chat to go on.`)
}

const STORE_UNAVAILABLE = Symbol.for('chat-app.ConversationStoreUnavailableError')

/** The chats' store could not be reached (Redis down); the request gets a 503 `store_unavailable`. */
export class ConversationStoreUnavailableError extends Error {
  override name = 'ConversationStoreUnavailableError'
  readonly [STORE_UNAVAILABLE] = true
}

export function isConversationStoreUnavailable(error: unknown): error is ConversationStoreUnavailableError {
  return hasMark(error, STORE_UNAVAILABLE)
}
