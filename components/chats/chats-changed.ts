/**
 * The chat page says on `window` that the list of chats changed — a chat was made, a turn ended
 * (its title, its time, whether it waits) — as a `CustomEvent` of this name with
 * `detail: { id }`. The sidebar reads the list again then: no polling.
 */
export const CHATS_CHANGED_EVENT = 'chats:changed'

/** Calls `listener` on each change; the returned function stops listening. */
export function onChatsChanged(listener: () => void): () => void {
  window.addEventListener(CHATS_CHANGED_EVENT, listener)
  return () => window.removeEventListener(CHATS_CHANGED_EVENT, listener)
}
