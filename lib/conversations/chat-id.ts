import { randomBytes } from 'node:crypto'

const ID_BYTES = 16
/** 16 bytes in unpadded base64url. */
const CHAT_ID = /^[A-Za-z0-9_-]{22}$/

/** A new chat id: 128 random bits, URL-safe, so that knowing one chat's address says nothing of another's. */
export function newChatId(): string {
  return randomBytes(ID_BYTES).toString('base64url')
}

/** Whether `text` could be a chat id; anything else is answered "not found" without asking the store. */
export function isChatId(text: string): boolean {
  return CHAT_ID.test(text)
}
