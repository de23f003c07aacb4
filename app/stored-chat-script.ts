import { CHAT_STORAGE_KEY } from '@/lib/client/storage-key'

/**
 * Runs before the first paint: marks `<html data-stored-chat>` when this browser keeps a
 * conversation, so the server-rendered empty state stays hidden until the chat is restored
 * instead of flashing before it (see globals.css). A fresh visit paints the empty state at once.
 */
export const storedChatScript = `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(CHAT_STORAGE_KEY)})||'null');if(s&&s.entries&&s.entries.length)document.documentElement.setAttribute('data-stored-chat','')}catch(e){}`
