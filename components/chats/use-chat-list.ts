import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ChatsApiError, deleteChat, listChats, MAX_PAGE_SIZE, renameChat, restoreChat, type Deletion, type ListedChat } from './chats-api'
import { onChatsChanged } from './chats-changed'

/** A page of the list, as the API's default. */
export const PAGE_SIZE = 50

export interface ChatList {
  /** Newest first, without the chats deleted here (undo may still bring them back). */
  chats: ListedChat[]
  /** Whether the server has more, older chats than those listed. */
  hasMore: boolean
  /** `loading` until the first page came; `failed` when the last read did not. */
  status: 'loading' | 'ready' | 'failed'
  /** Why the last read failed. */
  error?: string
  loadingMore: boolean
  /** Reads the list again, as many chats as are listed now. */
  refresh(): void
  /** The next, older page. */
  loadMore(): void
  /** Renames; a refusal is thrown with the server's message. */
  rename(id: string, title: string): Promise<void>
  /** Takes the chat off the list at once and deletes it; a refusal puts it back and is thrown. */
  remove(id: string): Promise<Deletion>
  /** Undoes a delete; the chat is back in its place. */
  restore(id: string): Promise<void>
}

/**
 * The sidebar's list of chats: the first page when the page opens, then read again whenever the
 * chat page says the chats changed (`chats:changed`) and after each change made here. One read at
 * a time: a newer one aborts the one under way, so an older answer never overwrites a newer.
 * A refresh reads as many chats as are shown (one request, up to `MAX_PAGE_SIZE`), so loading
 * more pages is not undone by the next turn's refresh.
 */
export function useChatList(): ChatList {
  const [chats, setChats] = useState<ListedChat[]>([])
  const [next, setNext] = useState<string | undefined>()
  const [status, setStatus] = useState<ChatList['status']>('loading')
  const [error, setError] = useState<string | undefined>()
  const [loadingMore, setLoadingMore] = useState(false)
  /** Deleted here: hidden even if a read that started before the delete lists them. */
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set())
  const reading = useRef<AbortController | undefined>(undefined)
  const shown = useRef(0)
  shown.current = chats.length

  const read = useCallback(async (page: { limit: number; cursor?: string }) => {
    reading.current?.abort()
    const abort = new AbortController()
    reading.current = abort
    setLoadingMore(page.cursor !== undefined)
    try {
      const answer = await listChats({ ...page, signal: abort.signal })
      if (abort.signal.aborted) return
      setChats((current) => (page.cursor === undefined ? answer.chats : [...current, ...answer.chats.filter((chat) => !current.some((known) => known.id === chat.id))]))
      setNext(answer.next)
      setStatus('ready')
      setError(undefined)
    } catch (failure) {
      if (abort.signal.aborted) return
      setStatus('failed')
      setError(failure instanceof ChatsApiError ? failure.message : 'The chats could not be read.')
    } finally {
      if (reading.current === abort) {
        reading.current = undefined
        setLoadingMore(false)
      }
    }
  }, [])

  const refresh = useCallback(() => {
    void read({ limit: Math.min(MAX_PAGE_SIZE, Math.max(PAGE_SIZE, shown.current)) })
  }, [read])

  const loadMore = useCallback(() => {
    if (next !== undefined) void read({ limit: PAGE_SIZE, cursor: next })
  }, [read, next])

  useEffect(() => {
    refresh()
    const stop = onChatsChanged(refresh)
    return () => {
      stop()
      reading.current?.abort()
    }
  }, [refresh])

  const hide = useCallback((id: string, hiddenNow: boolean) => {
    setHidden((current) => {
      const changed = new Set(current)
      if (hiddenNow) changed.add(id)
      else changed.delete(id)
      return changed
    })
  }, [])

  const rename = useCallback(
    async (id: string, title: string) => {
      await renameChat(id, title)
      setChats((current) => current.map((chat) => (chat.id === id ? { ...chat, title: title.trim() } : chat)))
      // A rename moves the chat's time: read the order again.
      refresh()
    },
    [refresh],
  )

  const remove = useCallback(
    async (id: string) => {
      hide(id, true)
      try {
        return await deleteChat(id)
      } catch (failure) {
        hide(id, false)
        throw failure
      }
    },
    [hide],
  )

  const restore = useCallback(
    async (id: string) => {
      await restoreChat(id)
      hide(id, false)
      refresh()
    },
    [hide, refresh],
  )

  const listed = useMemo(() => chats.filter((chat) => !hidden.has(chat.id)), [chats, hidden])
  return { chats: listed, hasMore: next !== undefined, status, error, loadingMore, refresh, loadMore, rename, remove, restore }
}
