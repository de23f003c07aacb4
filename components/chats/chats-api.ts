/**
 * The browser's side of the chats API (docs/conversations.md, "The API") as the sidebar uses it:
 * plain `fetch` and narrow checks of the few fields it reads. The sidebar is in the chat's first
 * load, so no schema library here (the server checks every request with its own schemas).
 */

/** A chat as the list shows it. */
export interface ListedChat {
  id: string
  /** `''` until the first message; the sidebar shows "New chat" then. */
  title: string
  updatedAt: number
  /** A tool call in the chat waits for the person's answer. */
  waiting: boolean
}

export interface ChatsPage {
  chats: ListedChat[]
  /** The cursor of the following page; absent on the last. */
  next?: string
}

/** A refusal or a failure, said as the person should read it (the server's message when it sent one). */
export class ChatsApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'ChatsApiError'
  }
}

/** The largest page the server gives (`MAX_PAGE_SIZE`). */
export const MAX_PAGE_SIZE = 200

export async function listChats({ limit, cursor, signal }: { limit?: number; cursor?: string; signal?: AbortSignal } = {}): Promise<ChatsPage> {
  const query = new URLSearchParams()
  if (limit !== undefined) query.set('limit', String(limit))
  if (cursor !== undefined) query.set('cursor', cursor)
  const body = await call(`/api/chats${query.toString() ? `?${query}` : ''}`, { signal })
  if (!isRecord(body) || !Array.isArray(body.chats) || !body.chats.every(isListedChat) || !(body.next === undefined || typeof body.next === 'string')) {
    throw new ChatsApiError('The list of chats came back in a shape this page does not know.', 200)
  }
  return { chats: body.chats, ...(body.next !== undefined ? { next: body.next } : {}) }
}

export async function renameChat(id: string, title: string): Promise<void> {
  await call(`/api/chats/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify({ title }), headers: { 'Content-Type': 'application/json' } })
}

export interface Deletion {
  id: string
  /**
   * How long undo has, in ms from when the answer came: the server's `restorableUntil` less the
   * server's own time (its `Date` header), so a browser clock that is off does not shorten or
   * stretch it. Without a `Date` header, measured against this browser's clock.
   */
  undoMs: number
}

export async function deleteChat(id: string): Promise<Deletion> {
  let serverNow = Date.now()
  const body = await call(`/api/chats/${encodeURIComponent(id)}`, { method: 'DELETE' }, (response) => {
    const date = Date.parse(response.headers.get('Date') ?? '')
    // The header has whole seconds: the answer was made up to a second after it.
    if (Number.isFinite(date)) serverNow = date + 1000
  })
  if (!isRecord(body) || typeof body.restorableUntil !== 'number') throw new ChatsApiError('The chat was deleted, but its undo time did not come back.', 200)
  return { id, undoMs: Math.max(0, body.restorableUntil - serverNow) }
}

export async function restoreChat(id: string): Promise<void> {
  await call(`/api/chats/${encodeURIComponent(id)}/restore`, { method: 'POST' })
}

/** Imports a JSON export as a new chat of this browser; its id. */
export async function importChat(exported: unknown): Promise<string> {
  const body = await call('/api/chats', { method: 'POST', body: JSON.stringify({ import: exported }), headers: { 'Content-Type': 'application/json' } })
  if (!isRecord(body) || !isRecord(body.chat) || typeof body.chat.id !== 'string') throw new ChatsApiError('The chat was imported, but its address did not come back.', 201)
  return body.chat.id
}

/** Where a chat's export downloads from. */
export function exportHref(id: string, format: 'md' | 'json'): string {
  return `/api/chats/${encodeURIComponent(id)}/export?format=${format}`
}

/** One request; its JSON body, or a `ChatsApiError` with the server's message for a refusal. */
async function call(url: string, init: RequestInit, onResponse?: (response: Response) => void): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, { cache: 'no-store', ...init })
  } catch (error) {
    if (init.signal?.aborted) throw error
    throw new ChatsApiError('The server could not be reached. Check the connection, then try again.', 0)
  }
  onResponse?.(response)
  const body: unknown = await response.json().catch(() => undefined)
  if (response.ok) return body
  const message = isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string' ? body.error.message : `The server answered ${response.status}.`
  throw new ChatsApiError(message, response.status)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isListedChat(value: unknown): value is ListedChat {
  return isRecord(value) && typeof value.id === 'string' && typeof value.title === 'string' && typeof value.updatedAt === 'number' && typeof value.waiting === 'boolean'
}
