'use client'

import { usePathname } from 'next/navigation'
import { useRef } from 'react'
import { Chat } from './Chat'

/**
 * The page at `/`: a new chat. Its first message creates the chat and replaces the URL with
 * `/c/<id>` without leaving this page, so the turn streaming here goes on. Back or forward to
 * such an entry comes to this page again (Next keeps the page it was replaced on) with the
 * chat's URL: a chat this page did not just create is opened by its id, as `/c/<id>` would.
 */
export function NewChat({ suggestions }: { suggestions: readonly string[] }) {
  const pathname = usePathname()
  const created = useRef<string | undefined>(undefined)
  const named = /^\/c\/([^/]+)$/.exec(pathname)?.[1]
  const id = named === undefined ? undefined : decodeURIComponent(named)
  const opened = id !== undefined && id !== created.current ? id : undefined
  return <Chat key={opened ?? 'new'} chatId={opened} suggestions={suggestions} onCreated={(made) => (created.current = made)} />
}
