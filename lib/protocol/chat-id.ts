const ID_BYTES = 16
/** 16 bytes in unpadded base64url. */
const CHAT_ID = /^[A-Za-z0-9_-]{22}$/

/**
 * A new chat id: 128 random bits, URL-safe, so that knowing one chat's address says nothing of
 * another's. Made by the browser for a new chat (its first turn names it, with `newChat`) and by
 * the server for an import: Web Crypto, in both.
 */
export function newChatId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_BYTES))
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Whether `text` could be a chat id; anything else is answered "not found" without asking the store. */
export function isChatId(text: string): boolean {
  return CHAT_ID.test(text)
}
