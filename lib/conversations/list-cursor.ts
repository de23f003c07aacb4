import type { ListPosition } from './conversation-store'
import { ConversationError } from './errors'

/** The cursor of the list's next page: where it resumes, opaque to the client (base64url JSON). */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.updatedAt, position.id])).toString('base64url')
}

/** The position a cursor names; a cursor this server did not make is refused with a 400. */
export function decodeListCursor(cursor: string): ListPosition {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    value = undefined
  }
  if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string' && value[1].length <= 64) {
    return { updatedAt: value[0], id: value[1] }
  }
  throw new ConversationError('invalid_request', 'The cursor is not one this list gave; start from the first page (no cursor).')
}
