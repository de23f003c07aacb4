import { hasMark, Refusal } from '../http'

/**
 * The refusals of the chats API and the HTTP status of each. Their JSON is the shape every
 * refusal of this app has (lib/http/errors.ts): `{ error: { code, message, issues? } }`.
 */
export const CONVERSATION_ERROR_STATUS = {
  /** No such chat for this identity: unknown, malformed, deleted, or another identity's (never 403: that would say it exists). */
  chat_not_found: 404,
  invalid_request: 400,
  /** An import that is not a chat export this server reads. */
  invalid_import: 400,
  /** The chat is at its limit of events or bytes (`CHAT_MAX_EVENTS`, `CHAT_MAX_BYTES`). */
  chat_too_large: 413,
  /** The identity keeps as many chats as it may (`CHATS_MAX_PER_IDENTITY`). */
  too_many_chats: 429,
  /** A change asked for by another site's page (`Sec-Fetch-Site`). */
  forbidden_origin: 403,
} as const

export type ConversationErrorCode = keyof typeof CONVERSATION_ERROR_STATUS

/** Marks every `ConversationError`, whichever copy of this module made it (`hasMark`). */
const CONVERSATION_ERROR = Symbol.for('chat-app.ConversationError')

/** A request about chats that is refused; it knows its HTTP status. */
export class ConversationError extends Refusal<ConversationErrorCode> {
  override name = 'ConversationError'
  readonly [CONVERSATION_ERROR] = true
  constructor(code: ConversationErrorCode, message: string, issues?: Array<{ path: string; message: string }>) {
    super(code, CONVERSATION_ERROR_STATUS[code], message, issues)
  }
}

export function isConversationError(error: unknown): error is ConversationError {
  return hasMark(error, CONVERSATION_ERROR)
}

export function chatNotFound(): ConversationError {
  return new ConversationError('chat_not_found', 'There is no such chat (it may have been deleted).')
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
