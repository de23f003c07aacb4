'use client'

import { usePathname } from 'next/navigation'
import { useCallback, useLayoutEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'

/**
 * Which chat the page shows: one answer, for the chat and the sidebar alike, followed from the
 * address. `/c/<id>` shows that chat, `/` a new one — whatever brought the address there: a link,
 * the header's button, the keyboard, back or forward. One exception: a new chat's first message
 * makes the chat, and the address is then replaced to name it; that address is the chat already
 * shown, whose turn goes on.
 */
export interface ShownChat {
  /** The chat's view: every other chat shown is another view, so nothing of one chat's state carries into the next. */
  readonly view: number
  /** The chat's id: the one its address named, or the one its first message made; none for a new chat not made yet. */
  readonly id?: string
  /** The chat to load from the server: its address named it when it was shown. None: a new chat. */
  readonly open?: string
}

/** The chat an address names (`/c/<id>`); none for `/`, a new chat. An id that is not one is "Chat not found", as an unknown one. */
export function chatOfPath(pathname: string): string | undefined {
  const named = /^\/c\/([^/]+)$/.exec(pathname)?.[1]
  if (named === undefined) return undefined
  try {
    return decodeURIComponent(named)
  } catch {
    return named
  }
}

/**
 * What is shown once the address names `id` (undefined: `/`): the chat shown, if it is that one;
 * otherwise another view, of that chat or of a new one.
 */
export function showChat(shown: ShownChat | undefined, id: string | undefined): ShownChat {
  if (shown !== undefined && shown.id === id) return shown
  return { view: (shown?.view ?? 0) + 1, id, open: id }
}

/**
 * The chat shown, followed from the address (`usePathname`), and `made`: the new chat of `view`
 * was made by its first message, with this `id`. Then that view is that chat, and the address is
 * replaced with `/c/<id>` (not navigated to: the turn streaming in the view goes on). A view no
 * longer shown changes nothing.
 */
export function useShownChat(): { shown: ShownChat; made(view: number, id: string): void } {
  const path = chatOfPath(usePathname())
  const [at, setAt] = useState(() => ({ path, shown: showChat(undefined, path) }))
  // The address changed: decided here, while rendering, so no frame shows one chat at another's address.
  let current = at
  if (at.path !== path) {
    current = { path, shown: showChat(at.shown, path) }
    setAt(current)
  }
  const latest = useRef(current.shown)
  useLayoutEffect(() => {
    latest.current = current.shown
  })
  const made = useCallback((view: number, id: string) => {
    const shown = latest.current
    if (shown.view !== view || shown.id !== undefined) return
    // The view is that chat before the address names it, so the address that follows is the chat shown.
    flushSync(() => setAt((now) => ({ ...now, shown: { ...now.shown, id } })))
    window.history.replaceState(null, '', `/c/${encodeURIComponent(id)}`)
  }, [])
  return { shown: current.shown, made }
}
